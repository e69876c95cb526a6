import type { PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';

/** A statement PostgreSQL parses and plans once per connection, named after the repository method that runs it. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const defined = new Set<string>();

/**
 * Names a prepared statement `<Repository>.<method>`: the name is derived from the one method that
 * runs it, and a second definition of the same name fails when the module loads, so two texts can
 * never share a name (PostgreSQL would run the first text under it).
 */
export function preparedStatement(owner: { name: string }, method: string, text: string): PreparedStatement {
  const name = `${owner.name}.${method}`;
  if (defined.has(name)) throw new Error(`prepared statement ${name} is defined twice`);
  defined.add(name);
  return { name, text };
}

/**
 * Runs one of the few statements every payment executes as a named prepared statement on the
 * transaction's own connection, so PostgreSQL parses and plans it once per connection instead of on
 * every call (TypeORM's `query` sends unnamed statements). For use inside `dataSource.transaction`
 * only. Errors are pg's own (same SQLSTATE `code` and `constraint` as TypeORM's wrapped ones, which
 * the error mapping reads either way).
 */
export async function preparedQuery<T>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) throw new Error(`prepared statement ${statement.name} needs a transaction`);
  const client = (await runner.connect()) as PoolClient;
  const result = await client.query<T & object>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
