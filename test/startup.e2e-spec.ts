import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './support/ports.js';

const ROOT = join(import.meta.dirname, '..');

/** Starts the built service (npm test builds first) the way `npm start` does (no DATABASE_URL: embedded PostgreSQL), and waits for /health. */
async function startService(env: Record<string, string>): Promise<{ proc: ChildProcess; output: () => string }> {
  let output = '';
  const proc = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (output += String(d)));
  proc.stderr!.on('data', (d) => (output += String(d)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`service exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${env.PORT}/health`).then((r) => r.ok).catch(() => false);
    if (ok) return { proc, output: () => output };
    await new Promise((r) => setTimeout(r, 250));
  }
  proc.kill('SIGKILL');
  throw new Error(`service did not start: ${output}`);
}

const stop = (proc: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.kill('SIGTERM');
  });

describe('npm start with no configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payg-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves health, docs and sign-in on an embedded database, prints a first admin password, and keeps data across a restart', async () => {
    const env = { PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), DATA_DIR: dataDir };
    const base = `http://127.0.0.1:${env.PORT}`;
    const first = await startService(env);
    const printed = /username "admin", password "([^"]+)"/.exec(first.output());
    expect(printed).not.toBeNull();
    const password = printed![1];
    expect((await fetch(`${base}/docs-json`)).status).toBe(200);
    const signIn = await fetch(`${base}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    expect(signIn.status).toBe(200);
    const { accessToken } = (await signIn.json()) as { accessToken: string };
    const created = await fetch(`${base}/finance/users/create`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': accessToken }, body: JSON.stringify({ username: 'kept-user', password: 'kept-password', role: 'OPERATOR' }) });
    expect(created.status).toBe(201);
    expect(await stop(first.proc)).toBe(0);

    const second = await startService(env);
    try {
      expect(second.output()).not.toContain('First administrator');
      // the token from before the restart still works (the secret is kept) and the user is still there
      const list = await fetch(`${base}/finance/users`, { headers: { 'x-access-token': accessToken } });
      expect(list.status).toBe(200);
      const body = (await list.json()) as { items: Array<{ username: string }> };
      expect(body.items.map((u) => u.username)).toContain('kept-user');
      expect(second.output()).not.toContain(accessToken);
    } finally {
      expect(await stop(second.proc)).toBe(0);
    }
  }, 120_000);

  it('starts again after a start that died without stopping its database, and refuses a second start on a cluster in use', async () => {
    const env = { PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), DATA_DIR: dataDir };
    const first = await startService(env);
    // killed outright (out of memory, kill -9): its postgres is left running on the folder
    await new Promise((resolve) => {
      first.proc.once('exit', resolve);
      first.proc.kill('SIGKILL');
    });
    const second = await startService(env);
    try {
      expect(second.output()).toMatch(/stopping the embedded PostgreSQL \(process \d+\) a previous start left running/);
      // another start of the same checkout while this one runs: one line, and the running one is untouched
      const third = spawn(process.execPath, ['dist/src/main.js'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(await freePort()) } });
      let stderr = '';
      third.stderr.on('data', (d) => (stderr += String(d)));
      expect(await new Promise((resolve) => third.once('exit', resolve))).toBe(1);
      expect(stderr).toMatch(/start-up failed: the embedded PostgreSQL in .* is in use by process \d+/);
      expect((await fetch(`http://127.0.0.1:${env.PORT}/health`)).status).toBe(200);
      // a cluster nobody is named as starting (a release before this one started it, maybe still running) is not stopped either
      const location = join(dataDir, 'pg-location');
      const clusterParent = existsSync(location) ? dirname(readFileSync(location, 'utf8').trim()) : dataDir;
      rmSync(join(clusterParent, 'pg-owner.pid'));
      const fourth = spawn(process.execPath, ['dist/src/main.js'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(await freePort()) } });
      let said = '';
      fourth.stderr.on('data', (d) => (said += String(d)));
      expect(await new Promise((resolve) => fourth.once('exit', resolve))).toBe(1);
      expect(said).toMatch(/is in use by PostgreSQL process \d+, started by a process this start cannot name/);
      expect((await fetch(`http://127.0.0.1:${env.PORT}/health`)).status).toBe(200);
    } finally {
      expect(await stop(second.proc)).toBe(0);
    }
  }, 180_000);

  it('refuses to start with bad configuration, naming the variable in one line', async () => {
    const proc = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', APP_ENV: 'production', DATA_DIR: dataDir },
    });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += String(d)));
    const code = await new Promise((resolve) => proc.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('JWT_SECRET')]);
  }, 30_000);
});
