import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { runMigrations } from '../../src/database/migrate.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { adminQuery, assertTestDatabase, withDatabase } from './test-database.js';

const stampOf = (migration: { name: string }) => Number(/(\d{13})$/.exec(migration.name)![1]);

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const dataSource = await new DataSource({ ...dataSourceOptions(url, 2), migrations }).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A new database on the test server, migrated up to the migration stamped `stamp` (not included): a book
 * as the release before it left it, for a test to fill and then upgrade with `migrateRest`.
 */
export async function databaseBefore(stamp: number, name: string): Promise<{ url: string; migrateRest(): Promise<void>; drop(): Promise<void> }> {
  const serverUrl = process.env.PAYG_TEST_SERVER_URL!;
  const url = withDatabase(serverUrl, `payg_test_${name}_${randomBytes(5).toString('hex')}`);
  assertTestDatabase(url);
  await adminQuery(serverUrl, `CREATE DATABASE ${new URL(url).pathname.slice(1)}`);
  await migrate(url, MIGRATIONS.filter((m) => stampOf(m) < stamp));
  return {
    url,
    migrateRest: () => migrate(url, MIGRATIONS),
    drop: () => adminQuery(url, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`),
  };
}
