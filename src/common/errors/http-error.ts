import { HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, ErrorKind } from './domain-error.js';

export interface HttpError {
  status: number;
  message: string;
  /** true when the cause is not the client's doing and belongs in the error log */
  unexpected: boolean;
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error.';
export const DATABASE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable: the database is not answering. Try again shortly.';

/** The one map from a failure's kind to its HTTP status (a kind without a status does not compile). */
const STATUS_OF: Record<ErrorKind, HttpStatus> = {
  INVALID: HttpStatus.BAD_REQUEST,
  UNAUTHENTICATED: HttpStatus.UNAUTHORIZED,
  FORBIDDEN: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFLICT: HttpStatus.CONFLICT,
  TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  RATE_LIMITED: HttpStatus.TOO_MANY_REQUESTS,
  UPSTREAM_FAILED: HttpStatus.BAD_GATEWAY,
  UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
};

/** Errors raised by the framework's body parser (Fastify), before any handler runs. */
const PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is larger than the 100 kB limit.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported Content-Type: send application/json.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body is empty: send a JSON object.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Request body length does not match Content-Length.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON in request body.' },
};

/** PostgreSQL / driver failures that mean "the database is unreachable", not "the request is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
/**
 * TypeORM's names for "the connection went away under this request": when the server ends a session
 * (57P01 on shutdown, a dropped socket), the query runner releases its connection on the error, and
 * the next statement of the same transaction (its COMMIT included) throws QueryRunner(Provider)AlreadyReleasedError.
 */
const UNAVAILABLE_ERROR_NAMES = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError', 'ConnectionIsNotSetError']);
// "timeout expired": a pg.Client of its own (an export's) that got no answer within its connectionTimeoutMillis
const UNAVAILABLE_TEXT = /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|terminating connection|the database system is (starting up|shutting down|in recovery mode)|Query read timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_ERROR_NAMES.has(error.name)) return true;
  const code = (error as { code?: string }).code ?? (error as { driverError?: { code?: string } }).driverError?.code;
  if (code && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
  return UNAVAILABLE_TEXT.test(error.message);
}

function messageOfHttpException(error: HttpException): string {
  const body = error.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return error.message;
}

/** The one mapping from anything thrown to the `{message}` answer. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof DomainError) return { status: STATUS_OF[error.kind], message: error.message, unexpected: error.kind === ErrorKind.UNAVAILABLE || error.kind === ErrorKind.UPSTREAM_FAILED };
  // Fastify's body-parser errors reach the filter wrapped in an HttpException; answer them in our words.
  const cause = error instanceof HttpException && error.cause ? error.cause : error;
  const parserCode = (cause as { code?: string } | null)?.code;
  if (parserCode && PARSER_ERRORS[parserCode]) return { ...PARSER_ERRORS[parserCode], unexpected: false };
  // Node's own error when the client hangs up before its body has arrived (ECONNRESET, like a lost database
  // connection's): the client's doing, answered to no one, and no sign of a database outage.
  if (parserCode === 'ECONNRESET' && (cause as Error).message === 'aborted') return { status: 400, message: 'The client ended the request before sending all of it.', unexpected: false };
  if (cause instanceof SyntaxError && (cause as { statusCode?: number }).statusCode === 400) {
    return { status: 400, message: 'Malformed JSON in request body.', unexpected: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, message: messageOfHttpException(error), unexpected: status >= 500 };
  }
  if (isDatabaseUnavailable(error)) return { status: 503, message: DATABASE_UNAVAILABLE_MESSAGE, unexpected: true };
  const statusCode = (error as { statusCode?: number } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, message: (error as Error).message || 'Bad request.', unexpected: false };
  }
  return { status: 500, message: INTERNAL_ERROR_MESSAGE, unexpected: true };
}
