import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthUser } from '../auth/role.js';
import { AuditWriter } from './audit-writer.js';
import { cutText } from '../identifiers/characters.js';

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
    if (transaction && typeof transaction.id === 'string') return cutText(transaction.id, 100);
  }
  return null;
}

/**
 * Records every successful state-changing request: who, which route, which record, when. It reads
 * the answer as the handler returned it, before it is written as JSON (Fastify's preSerialization
 * hook), so error answers (4xx, 5xx) are never recorded. A hook rather than a Nest interceptor:
 * one global interceptor puts every request of the service through rxjs (docs/performance.md).
 */
@Injectable()
export class AuditHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly writer: AuditWriter,
  ) {}

  onModuleInit(): void {
    // hooks added before the server is ready apply to every route, also those registered already
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preSerialization', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
      if (!READ_METHODS.has(request.method) && reply.statusCode < 400) this.record(request as FastifyRequest & { user?: AuthUser }, reply.statusCode, payload);
      done(null, payload);
    });
  }

  private record(request: FastifyRequest & { user?: AuthUser }, status: number, answer: unknown): void {
    this.writer.record({
      userId: request.user?.id ?? null,
      method: request.method,
      route: request.routeOptions?.url ?? request.url,
      recordId: recordIdOf(answer, request.body),
      status,
      requestId: String(request.id),
      at: new Date(),
    });
  }
}
