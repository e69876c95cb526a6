import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { runMigrations } from '../../src/database/migrate.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { adminQuery, assertTestDatabase, withDatabase } from './test-database.js';

/** The last migration of release 2.0.0 as it shipped before issue 14: its book is what upgrades must keep. */
export const RELEASE_2_0_0_LAST_MIGRATION = 'InventoryCollectionsFeedback1764806400000';

/**
 * A new, empty test database migrated only up to (and including) `lastMigration`: the schema an
 * older release wrote. Returns its URL and a data source on it (destroy it before opening the app).
 */
export async function databaseAtRelease(lastMigration = RELEASE_2_0_0_LAST_MIGRATION): Promise<{ url: string; db: DataSource }> {
  const serverUrl = process.env.PAYG_TEST_SERVER_URL;
  if (!serverUrl) throw new Error('test database server not prepared: run through jest (globalSetup)');
  const name = `payg_test_old_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(serverUrl, name);
  assertTestDatabase(url);
  const upTo = MIGRATIONS.findIndex((m) => m.name === lastMigration);
  if (upTo < 0) throw new Error(`unknown migration ${lastMigration}`);
  const db = await new DataSource({ ...dataSourceOptions(url, 2), migrations: MIGRATIONS.slice(0, upTo + 1) }).initialize();
  await runMigrations(db);
  return { url, db };
}
