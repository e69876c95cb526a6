import 'reflect-metadata';
import { AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres.js';
import { createApp } from './app.factory.js';

const line = (text: string) => process.stderr.write(`${text}\n`);

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      line(error.message);
      process.exit(1);
    }
    throw error;
  }

  let embedded: EmbeddedDatabase | undefined;
  if (!config.database.url) {
    line(`starting embedded PostgreSQL (data in ${config.dataDir}/pg, port ${config.database.embeddedPort})`);
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.database.embeddedPort, database: `payg_${config.env}`, log: line });
    config.database.url = embedded.url;
  }

  const app = await createApp(config).catch(async (error: unknown) => {
    await embedded?.stop();
    throw error;
  });
  await app.listen({ port: config.port, host: '0.0.0.0' });
  line(`PAYG service (${config.env}) listening on http://localhost:${config.port}  docs: /docs  health: /health`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    line(`${signal} received: draining requests and stopping`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await embedded?.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  line(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
