import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import { runMigrations } from '../database/migrate.js';
import { resolveDatabase } from './database-url.js';

/**
 * `npm run migration:run | migration:revert` on DATABASE_URL, or on the embedded database of APP_ENV
 * when DATABASE_URL is not set (started and stopped here). `npm run migration:create -- <Name>` writes
 * an empty, timestamped migration to fill in by hand: the schema is not derived from entities (most
 * tables have none; docs/architecture.md, Persistence).
 */
async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  if (command === 'create') {
    if (!name) throw new ConfigError('usage: npm run migration:create -- <Name>');
    const cli = join(process.cwd(), 'node_modules/typeorm/cli.js');
    execFileSync(process.execPath, [cli, 'migration:create', `src/database/migrations/${name}`], { stdio: 'inherit' });
    console.log('now list it at the end of MIGRATIONS in src/database/schema.ts');
    return;
  }
  const config = loadConfig(process.env);
  const { url, embedded } = await resolveDatabase(config);
  config.database.url = url;
  try {
    const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
    try {
      if (command === 'run') {
        const applied = await runMigrations(dataSource);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
      } else if (command === 'revert') {
        await dataSource.undoLastMigration({ transaction: 'each' });
        console.log('reverted the last migration');
      } else {
        throw new ConfigError('usage: migrate-cli run | revert | create <Name>');
      }
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
