import { AppConfig } from '../config/app-config.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../database/embedded-postgres.js';

/** DATABASE_URL, or the embedded database of APP_ENV, started for the command (and stopped by it). */
export async function resolveDatabase(config: AppConfig): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.database.url) return { url: config.database.url };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.database.embeddedPort, database: `payg_${config.env}` });
  return { url: embedded.url, embedded };
}
