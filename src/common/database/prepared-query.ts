import type { PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * Runs one of the few statements every payment executes as a named prepared statement on the
 * transaction's own connection, so PostgreSQL parses and plans it once per connection instead of on
 * every call (TypeORM's `query` sends unnamed statements). For use inside `dataSource.transaction`
 * only; `name` must be unique to `text` across the service. Errors are pg's own (same SQLSTATE
 * `code` and `constraint` as TypeORM's wrapped ones, which the error mapping reads either way).
 */
export async function preparedQuery<T>(em: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) throw new Error(`prepared statement ${name} needs a transaction`);
  const client = (await runner.connect()) as PoolClient;
  const result = await client.query<T & object>({ name, text, values });
  return result.rows;
}
