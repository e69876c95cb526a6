import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { Role } from '../../src/common/auth/role.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import pg from 'pg';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { runMigrations } from '../../src/database/migrate.js';
import { adminQuery, assertTestDatabase, withDatabase } from './test-database.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  config: AppConfig;
  clock: ManualClock;
  db: DataSource;
  databaseUrl: string;
  /** Where the app listens (127.0.0.1, a free port): for clients other than `http`, a browser or a webhook sender. */
  baseUrl: string;
  /** A token for a fresh user of that role (made once per role and cached). */
  token(role: Role): Promise<string>;
  /** Makes a staff user and returns its id and token. */
  user(role: Role, username?: string): Promise<{ id: number; username: string; password: string; token: string }>;
  close(): Promise<void>;
}

/**
 * The run's migrated template database, made once: the first test file to get here takes an
 * advisory lock, creates and migrates it; the others wait on the lock and find it ready.
 */
async function ensureTemplate(serverUrl: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(424242)');
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${template}_building`);
      const dataSource = await new DataSource(dataSourceOptions(withDatabase(serverUrl, `${template}_building`), 2)).initialize();
      try {
        await runMigrations(dataSource);
      } finally {
        await dataSource.destroy();
      }
      await client.query(`ALTER DATABASE ${template}_building RENAME TO ${template}`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(424242)').catch(() => undefined);
    await client.end();
  }
}

/** A fresh database cloned from the migrated template, for one test file. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = process.env.PAYG_TEST_SERVER_URL;
  const template = process.env.PAYG_TEST_TEMPLATE;
  if (!serverUrl || !template) throw new Error('test database not prepared: run through jest (globalSetup)');
  assertTestDatabase(serverUrl);
  await ensureTemplate(serverUrl, template);
  const name = `payg_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = withDatabase(serverUrl, name);
  assertTestDatabase(url);
  return url;
}

export async function dropTestDatabase(url: string): Promise<void> {
  assertTestDatabase(url);
  const name = new URL(url).pathname.slice(1);
  await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): AppConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'payg-test-data-'));
  const config = loadConfig({
    APP_ENV: 'uat',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    DATA_DIR: dataDir,
    DB_POOL_SIZE: '10',
    // every test request comes from 127.0.0.1: the per-address sign-in limit is tested on its own (accounts.e2e)
    SIGNIN_ADDRESS_LIMIT: '100000',
    ...env,
  });
  config.database.url = databaseUrl;
  return config;
}

export async function startTestApp(options: { env?: Record<string, string>; now?: Date; databaseUrl?: string } = {}): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = testConfig(databaseUrl, options.env);
  const clock = new ManualClock(options.now ?? new Date('2026-01-15T09:00:00Z'));
  const app = await createApp(config, { clock });
  // Listening once: supertest would otherwise open and close a listener per request, and a long fuzz run
  // (PAYG_LONG_TESTS=1) then runs out of local ports (EADDRINUSE)
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const http = request(app.getHttpServer());
  const tokens = new Map<Role, Promise<string>>();
  let adminToken: Promise<string> | undefined;
  let counter = 0;

  const signIn = async (username: string, password: string): Promise<string> => {
    const res = await http.post('/api/auth/signin').send({ username, password });
    if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.accessToken as string;
  };
  const user = async (role: Role, username = `${role.toLowerCase()}${++counter}_${randomBytes(3).toString('hex')}`) => {
    adminToken ??= signIn(ADMIN.username, ADMIN.password);
    if (role === Role.ADMIN && username === ADMIN.username) return { id: 1, username, password: ADMIN.password, token: await adminToken };
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const res = await http.post('/finance/users/create').set('x-access-token', await adminToken).send({ username, password, role });
    if (res.status !== 201) throw new Error(`could not create ${role} user: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.id as number, username, password, token: await signIn(username, password) };
  };
  const token = (role: Role): Promise<string> => {
    if (role === Role.ADMIN) return (adminToken ??= signIn(ADMIN.username, ADMIN.password));
    if (!tokens.has(role)) tokens.set(role, user(role).then((u) => u.token));
    return tokens.get(role)!;
  };

  return {
    app,
    http,
    config,
    clock,
    db: app.get(DataSource),
    databaseUrl,
    baseUrl,
    token,
    user,
    async close() {
      await app.close();
      if (!options.databaseUrl) await dropTestDatabase(databaseUrl);
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
