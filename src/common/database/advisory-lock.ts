import type { DataSource } from 'typeorm';

/**
 * Runs `work` while holding the PostgreSQL session advisory lock `key`, on a connection of its own;
 * answers `skipped` without running it when another session (another instance) holds the lock.
 */
export async function withAdvisoryLock<T>(dataSource: DataSource, key: number, work: () => Promise<T>): Promise<{ skipped: true } | { skipped: false; result: T }> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as Array<{ locked: boolean }>;
    if (!locked) return { skipped: true };
    try {
      return { skipped: false, result: await work() };
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await runner.release();
  }
}
