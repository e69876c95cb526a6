import { DataSource, MigrationExecutor } from 'typeorm';

/** Any fixed number: the advisory lock that lets one instance at a time run migrations. */
const MIGRATION_LOCK = 72_201_001;

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so several instances
 * starting together on one database apply each migration exactly once. They run on the session
 * holding the lock, which may stay idle in a migration's transaction while it works out rows in
 * code (an old book's identifiers): the limit the pool's sessions have for that is lifted there.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await runner.query('SET idle_in_transaction_session_timeout = 0');
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const done = await executor.executePendingMigrations();
    return done.map((m) => m.name);
  } finally {
    await runner.query('RESET idle_in_transaction_session_timeout').catch(() => undefined);
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
