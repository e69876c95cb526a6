import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';
import { runMigrations } from './migrate.js';

/**
 * `npm run migration:run | migration:revert | migration:generate -- <Name>` on DATABASE_URL, or on
 * the embedded database of APP_ENV when DATABASE_URL is not set (started and stopped here).
 */
async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  const config = loadConfig(process.env);
  let embedded: EmbeddedDatabase | undefined;
  if (!config.database.url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.database.embeddedPort, database: `payg_${config.env}` });
    config.database.url = embedded.url;
  }
  try {
    if (command === 'generate') {
      if (!name) throw new ConfigError('usage: npm run migration:generate -- <Name>');
      const cli = join(process.cwd(), 'node_modules/typeorm/cli.js');
      execFileSync(process.execPath, [cli, 'migration:generate', '-d', 'dist/ormconfig.js', `src/database/migrations/${name}`], {
        stdio: 'inherit',
        env: { ...process.env, DATABASE_URL: config.database.url },
      });
      return;
    }
    const dataSource = await new DataSource(dataSourceOptions(config.database.url)).initialize();
    try {
      if (command === 'run') {
        const applied = await runMigrations(dataSource);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
      } else if (command === 'revert') {
        await dataSource.undoLastMigration({ transaction: 'each' });
        console.log('reverted the last migration');
      } else {
        throw new ConfigError('usage: migrate-cli run | revert | generate <Name>');
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
