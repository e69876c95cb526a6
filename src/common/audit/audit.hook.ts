import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import type { FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import { AuthUser } from '../auth/role.js';
import { AuditWriter } from './audit-writer.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Where the record a request changed is named: in the answer first, then in the request. */
const RECORD_KEYS = ['importid', 'paymentid', 'customerid', 'dealid', 'itemid', 'callid', 'commandid', 'feedbackid', 'transactionid', 'accountid', 'reference', 'id'];

function recordIdOf(...sources: unknown[]): string | null {
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const key of RECORD_KEYS) {
      const value = (source as Record<string, unknown>)[key];
      if (typeof value === 'number' || (typeof value === 'string' && value.length <= 100)) return String(value);
    }
    const transaction = (source as { transaction?: { id?: unknown } }).transaction;
    if (transaction && typeof transaction.id === 'string') return transaction.id.slice(0, 100);
  }
  return null;
}

/** Records every successful state-changing request: who, which route, which record, when. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly writer: AuditWriter) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
    if (READ_METHODS.has(request.method)) return next.handle();
    return next.handle().pipe(
      tap((result) => {
        const status = (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? 201;
        this.writer.record({
          userId: request.user?.id ?? null,
          method: request.method,
          route: request.routeOptions?.url ?? request.url,
          recordId: recordIdOf(result, request.body),
          status,
          requestId: String(request.id),
          at: new Date(),
        });
      }),
    );
  }
}
