import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_UNAVAILABLE_MESSAGE, HttpError, isDatabaseUnavailable, toHttpError } from './http-error.js';

/** Answers whether the database answers right now (true) or is unreachable (false); never rejects. */
export type DatabaseProbe = () => Promise<boolean>;

/** The token's "Unauthorized!" (see access.guard.ts): the only 401 that can come from a failed user look-up. */
const TOKEN_REFUSED = 'Unauthorized!';

/**
 * A probe for the filter: `SELECT 1` within `timeoutMs`. One probe at a time, and its answer is
 * reused for `reuseMs`, so a burst of refused tokens costs one query, not one each.
 */
export function databaseProbe(query: () => Promise<unknown>, timeoutMs = 2_000, reuseMs = 1_000): DatabaseProbe {
  let last: { at: number; answer: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > reuseMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const answer = Promise.race([query().then(() => true, (error: unknown) => !isDatabaseUnavailable(error)), timeout]).finally(() => clearTimeout(timer));
      last = { at: now, answer };
    }
    return last.answer;
  };
}

/** Every error leaves the service as exactly `{"message": string}`; details go to the log only. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  /**
   * `databaseUp`: when given, a token refused with 401 "Unauthorized!" is checked against it. The
   * token guard looks the user up in the database and answers 401 for any failure there, so while
   * the database is unreachable every caller whose user is not cached would be told its token is
   * bad (and a mobile-money provider may then stop sending). Such a 401 becomes 503: try again.
   */
  constructor(private readonly databaseUp?: DatabaseProbe) {}

  catch(error: unknown, host: ArgumentsHost): void | Promise<void> {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const answer = toHttpError(error);
    if (this.databaseUp && answer.status === HttpStatus.UNAUTHORIZED && answer.message === TOKEN_REFUSED && request?.headers?.['x-access-token']) {
      return this.databaseUp().then(
        (up) => this.send(reply, request, error, up ? answer : { status: HttpStatus.SERVICE_UNAVAILABLE, message: DATABASE_UNAVAILABLE_MESSAGE, unexpected: true }),
        () => this.send(reply, request, error, answer),
      );
    }
    this.send(reply, request, error, answer);
  }

  private send(reply: FastifyReply, request: FastifyRequest, error: unknown, { status, message, unexpected }: HttpError): void {
    if (unexpected) {
      this.logger.error({ err: error, reqId: request?.id, route: request?.routeOptions?.url }, `${status} ${message}`);
    }
    if (reply.sent) return;
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ message });
  }
}
