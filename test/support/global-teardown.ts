import { rmSync } from 'node:fs';
import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  const embedded = g.__PAYG_TEST_PG__ as { pg: { stop(): Promise<void> }; dataDir: string } | undefined;
  if (embedded) {
    await embedded.pg.stop();
    rmSync(embedded.dataDir, { recursive: true, force: true });
    return;
  }
  // An outside server: drop this run's template (each test file drops its own database).
  const url = new URL(process.env.PAYG_TEST_SERVER_URL!);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${process.env.PAYG_TEST_TEMPLATE} WITH (FORCE)`).catch(() => undefined);
  await client.end();
}
