import { Body, CanActivate, Controller, ExecutionContext, Injectable, Post, Query, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { AppConfig } from '../../../config/app-config.js';
import { MessagesService } from '../application/messages.service.js';
import { DeliveryReportQuery, DeliveryReportRequest, DeliveryReportResponse } from './messages.dto.js';

export const DELIVERY_REPORTS_PATH = '/sms/delivery-reports';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The query's key against SMS_CALLBACK_KEY, in constant time (digests of equal length); before any body is looked at. */
@Injectable()
export class DeliveryReportKeyGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const key = context.switchToHttp().getRequest<{ query?: { key?: unknown } }>().query?.key;
    const expected = this.config.sms.callbackKey;
    const given = typeof key === 'string' ? key : '';
    const match = timingSafeEqual(digest(given), digest(expected ?? ''));
    if (!expected || !match) throw new DomainError(ErrorKind.UNAUTHENTICATED, 'BAD_CALLBACK_KEY', 'Invalid delivery-report key.');
    return true;
  }
}

/**
 * Gateways post delivery reports as HTML forms: this route, and only this one, also takes
 * application/x-www-form-urlencoded (every other route stays JSON only, 415 otherwise).
 */
export function acceptFormDeliveryReports(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
    if (request.routeOptions?.url !== DELIVERY_REPORTS_PATH) {
      return done(Object.assign(new Error('Unsupported Content-Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }));
    }
    // fromEntries defines own properties: a "__proto__" field is a plain key, never a prototype
    done(null, Object.fromEntries(new URLSearchParams(body.toString())));
  });
}

@ApiTags('Messages')
@Controller('sms')
export class DeliveryReportsController {
  constructor(private readonly messages: MessagesService) {}

  @Post('delivery-reports')
  @UseGuards(DeliveryReportKeyGuard)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @Endpoint({
    summary: 'SMS delivery report (gateway callback)',
    description:
      'Africa’s Talking posts `id`, `status`, `phoneNumber`, `networkCode`, `failureReason`, `retryCount` as a form (JSON is taken too; fields not used here are ignored). `key` must be SMS_CALLBACK_KEY (401 otherwise, nothing changed). Success → DELIVERED, Failed or Rejected → FAILED with the reason; an id no message has, or a message already final, changes nothing and is answered 200 so the gateway stops retrying.',
    roles: 'public',
    response: DeliveryReportResponse,
    errors: [401],
  })
  report(@Query() _query: DeliveryReportQuery, @Body() body: DeliveryReportRequest): Promise<DeliveryReportResponse> {
    return this.messages.applyDeliveryReport(body);
  }
}
