import { DataSource } from 'typeorm';

/** Any fixed number: the advisory lock that lets one instance at a time run migrations. */
const MIGRATION_LOCK = 72_201_001;

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so several instances
 * starting together on one database apply each migration exactly once.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const done = await dataSource.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
