import fastifyMultipart from '@fastify/multipart';
import { NestFactory } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { requestId } from './common/logging/logging.js';
import { Clock } from './common/time/clock.js';
import { StrictValidationPipe } from './common/validation/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { runMigrations } from './database/migrate.js';
import { acceptFormDeliveryReports } from './modules/messages/http/delivery-reports.controller.js';
import { NO_TOKEN } from './modules/auth/http/access.guard.js';
import { ACCESS_TOKEN_HEADER } from './modules/auth/infrastructure/jwt.strategy.js';
import { setUpSwagger } from './swagger.js';
import { MAX_PARAM_LENGTH, tooLongParameterMessage } from './common/http/limits.js';
import { setUpWebClient } from './web-client.js';

export const BODY_LIMIT_BYTES = 100 * 1024;
/** The routes that take multipart/form-data (a file) instead of JSON. */
const MULTIPART_ROUTES = new Set(['POST /finance/imports']);

function frameworkError(error: { code?: string }): { status: number; message: string } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 400, message: tooLongParameterMessage() };
  return { status: 400, message: 'Malformed URL.' };
}

/** Fastify's clientError answer (431 for headers over 16 kB, 408, 400) with a `{message}` body. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request line and headers are larger than the 16 kB limit.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out.']
        : [400, 'Malformed HTTP request.'];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

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
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router and the HTTP parser answer before any handler runs get the same `{message}` body.
    frameworkErrors: (error: { code?: string }, _request: FastifyRequest, reply: FastifyReply) => {
      const { status, message } = frameworkError(error);
      void reply.code(status).send({ message });
    },
    clientErrorHandler: answerClientError,
    // Fastify turns off Node's own limit (5 minutes) on how long a request may take to arrive: without one, a client that
    // trickles a body a byte at a time holds its socket for ever, and a few thousand of them leave no socket for the
    // provider's callbacks. Past it the request is answered 408 (answerClientError) and its socket closed. Node applies
    // the limit to a body still arriving only when the server is created with it, hence `http` as well.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    http: { requestTimeout: config.requestTimeoutSeconds * 1000, connectionsCheckingInterval: Math.min(30_000, (config.requestTimeoutSeconds * 1000) / 2) },
    // behind a reverse proxy every client would share the proxy's address, and one client's bad sign-ins
    // would use up everyone's SIGNIN_ADDRESS_LIMIT: X-Forwarded-For is read from the proxies named, from no one else
    ...(config.trustedProxies.length ? { trustProxy: config.trustedProxies } : {}),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    // Nest would add an application/x-www-form-urlencoded parser; Fastify's own application/json parser is the only one kept.
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(new StrictValidationPipe());
  const dataSource = app.get(DataSource);
  app.useGlobalFilters(new AllExceptionsFilter());
  // Keep parsing `application/json` only: Fastify's default text/plain parser would let raw text reach handlers.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  // multipart/form-data for the file uploads of MULTIPART_ROUTES only (its size cap is checked per request, IMPORT_MAX_MB);
  // the plugin's parser is global, so every other route keeps answering a form with the JSON routes' 415, and
  // MULTIPART_ROUTES answer anything but a form with a 415 that asks for one.
  await app.register(fastifyMultipart, { limits: { fileSize: config.importMaxMb * 1024 * 1024, files: 1, fields: 10, parts: 11 } });
  // first, so that its security headers are on every answer, the early refusals below included
  await setUpWebClient(app);
  app.getHttpAdapter().getInstance().addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // every /finance/ route needs a token (the interface, part 5): without one, that is the answer, before the body is looked at
    const header = request.headers[ACCESS_TOKEN_HEADER];
    if (request.routeOptions.url?.startsWith('/finance/') && (header === undefined || header === '')) {
      await reply.code(401).send({ message: NO_TOKEN });
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    if (MULTIPART_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) {
      if (!/^multipart\/form-data(;|\s|$)/i.test(contentType)) await reply.code(415).send({ message: 'Unsupported Content-Type: send multipart/form-data.' });
    } else if (/^multipart\//i.test(contentType)) {
      await reply.code(415).send({ message: 'Unsupported Content-Type: send application/json.' });
    }
  });
  // …and form bodies for the SMS gateway's delivery reports, on that route alone
  acceptFormDeliveryReports(app.getHttpAdapter().getInstance());
  setUpSwagger(app, config);
  await runMigrations(dataSource);
  await app.init();
  return app;
}
