import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from './http-error.js';

/** Every error leaves the service as exactly `{"message": string}`; details go to the log only. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, message, unexpected } = toHttpError(error);
    if (unexpected) {
      this.logger.error({ err: error, reqId: request?.id, route: request?.routeOptions?.url }, `${status} ${message}`);
    }
    if (reply.sent) return;
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ message });
  }
}
