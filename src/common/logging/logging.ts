import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Params } from 'nestjs-pino';
import { AppConfig } from '../../config/app-config.js';

/**
 * Keys whose values never reach a log line, wherever they appear. A database error logged as `err`
 * carries the statement's parameters (a new password's hash, personal data) and PostgreSQL's detail
 * (`Failing row contains (…)`, the whole row): only the statement's text, message and code are kept.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'accessToken',
  '*.accessToken',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'req.headers["x-access-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'err.parameters',
  'err.detail',
  'err.driverError.parameters',
  'err.driverError.detail',
];

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
}

/**
 * Structured JSON logs with the request id on every line. Requests are logged by method, path and
 * status only: no headers (tokens) and no bodies (passwords, personal data).
 */
export function loggingParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? requestId(req),
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      base: { service: 'payg', env: config.env },
    },
  };
}
