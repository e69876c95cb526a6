import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter, databaseProbe } from './common/errors/all-exceptions.filter.js';
import { requestId } from './common/logging/logging.js';
import { Clock } from './common/time/clock.js';
import { StrictValidationPipe } from './common/validation/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { runMigrations } from './database/migrate.js';
import { setUpSwagger } from './swagger.js';

export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Builds the whole service, applies pending migrations and initialises it, without listening.
 * main.ts and the end-to-end tests both start the service through here.
 */
export async function createApp(config: AppConfig, options: { clock?: Clock } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestId,
    // JSON only; Fastify answers 415 for anything else and refuses __proto__/constructor keys.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(new StrictValidationPipe());
  const dataSource = app.get(DataSource);
  app.useGlobalFilters(new AllExceptionsFilter(databaseProbe(() => dataSource.query('SELECT 1'))));
  // Keep parsing `application/json` only: Fastify's default text/plain parser would let raw text reach handlers.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  setUpSwagger(app, config);
  await runMigrations(dataSource);
  await app.init();
  return app;
}
