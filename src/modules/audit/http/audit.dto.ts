import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/http/pagination.js';
import { DateField, IdentifierField, QueryIdField } from '../../../common/validation/fields.js';
import type { AuditEntryView } from '../application/audit.service.js';

export class AuditQuery extends PageQuery {
  @QueryIdField({ optional: true, example: 3, description: 'Only what this staff user did.' })
  userid?: number;

  @QueryIdField({ optional: true, example: 42, description: 'Only what was done to this customer: requests that named the customer (registration, approval, sales stage, bonus days, temporary unlock, sync, repossession) and the payments loaded for them.' })
  customerid?: number;

  @IdentifierField({ optional: true, max: 100, example: '42', description: 'Only requests on this record (its id or reference as the log names it).' })
  record?: string;

  @IdentifierField({ optional: true, example: '/finance/payments/load', description: 'Only requests to this route (its path as declared, e.g. /finance/customers/register).' })
  route?: string;

  @DateField({ optional: true, example: '2026-03-01', description: 'From this business day (inclusive).' })
  startdate?: string;

  @DateField({ optional: true, example: '2026-03-31', description: 'Up to this business day (inclusive).' })
  enddate?: string;
}

export class AuditEntryResponse implements AuditEntryView {
  @ApiProperty({ type: 'integer', example: 1031 }) auditid: number;
  @ApiProperty({ example: 3, nullable: true, type: 'integer', description: 'The staff user who made the request (null for none).' }) userid: number | null;
  @ApiProperty({ example: 'cashier1', nullable: true, type: String }) username: string | null;
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiProperty({ example: '/finance/payments/load' }) route: string;
  @ApiProperty({ example: '77', nullable: true, type: String, description: 'The record the request changed: the id in its answer, else in its body.' }) recordid: string | null;
  @ApiProperty({ type: 'integer', example: 201, description: 'The HTTP status the request was answered with.' }) status: number;
  @ApiProperty({ example: 'req-1a2b', nullable: true, type: String }) requestid: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T08:00:00.000Z' }) at: string;
}

