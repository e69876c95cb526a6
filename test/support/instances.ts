import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { ADMIN, TEST_JWT_SECRET } from './test-app.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Instance {
  url: string;
  proc: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built service (npm test builds first) as its own process on a given database. */
export async function startInstance(databaseUrl: string, env: Record<string, string> = {}, options: { outputLimit?: number } = {}): Promise<Instance> {
  const limit = options.outputLimit ?? 20_000;
  const port = await freePort();
  let output = '';
  const proc = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      JOBS_ENABLED: 'false',
      DB_POOL_SIZE: '10',
      SIGNIN_ADDRESS_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (output = (output + String(d)).slice(-limit)));
  proc.stderr!.on('data', (d) => (output = (output + String(d)).slice(-limit)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`instance exited during start: ${output}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`instance did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    proc,
    output: () => output,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        proc.once('exit', (code) => resolve(code));
        proc.kill(signal);
      }),
  };
}

export async function api(url: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

export async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await api(url, '/api/auth/signin', undefined, { username, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken;
}
