import { join } from 'node:path';
import { createServer } from 'node:net';

type Reach = typeof import('../../src/database/postgres-reach.js');

/**
 * Once per test run: a PostgreSQL server, embedded in a temporary folder unless TEST_DATABASE_URL
 * names one. (Jest loads this file outside its module system, so it imports packages and, by its
 * .ts name, the one source file written for that; the migrated template database is made by the
 * first test file that needs it, see test-app.ts.)
 */
export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // Loaded by Node's own type stripping here, hence the .ts name (src/database/postgres-reach.ts).
    const reach = (await import(new URL('../../src/database/postgres-reach.ts', import.meta.url).href)) as Reach;
    // As root, the cluster runs as the postgres user: folders and binaries it can reach, wherever the checkout is.
    let dataDir: string;
    let EmbeddedPostgres: Awaited<ReturnType<Reach['loadEmbeddedPostgres']>>['EmbeddedPostgres'];
    try {
      dataDir = reach.postgresScratchDir('payg-test-pg-');
      ({ EmbeddedPostgres } = await reach.loadEmbeddedPostgres({ log: (line) => process.stderr.write(`${line}\n`) }));
    } catch (error) {
      if (!(error instanceof reach.EmbeddedPostgresSetupError)) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
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
