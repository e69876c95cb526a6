import pg from 'pg';
import { DataSourceOptions } from 'typeorm';
import { ENTITIES, MIGRATIONS } from './schema.js';

// A PostgreSQL `date` is a calendar day, not an instant: keep it as 'YYYY-MM-DD' instead of a local-midnight Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/**
 * One definition of the TypeORM connection, shared by the app, the migration CLI (ormconfig.ts)
 * and the tests. Entities and migrations are listed in schema.ts.
 * Never synchronize: the schema changes only through migrations.
 */
export function dataSourceOptions(url: string, poolSize = 20, idleInTransactionMs = 60_000): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // Fail fast instead of hanging when the database is down: a request waits at most 3 s for a connection
    // (a free pool slot or a new session), so that it is answered 503 well within 5 s.
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30000,
      statement_timeout: 15000,
      query_timeout: 20000,
      keepAlive: true,
      // A process that stops answering without dying (paused, cut off from the database) keeps its open
      // transaction and its row locks: a delivery round's commands, a deal, an import's job. The server
      // ends such a session after DB_IDLE_TRANSACTION_SECONDS (a minute), so the other instances go on (a
      // delivery round waits at most 10 s for the platform between two statements, an import a moment).
      idle_in_transaction_session_timeout: idleInTransactionMs,
    },
  };
}
