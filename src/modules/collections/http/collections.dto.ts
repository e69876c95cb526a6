import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination.js';
import { DateField, EnumField, IdField, QueryIdField, TextField } from '../../../common/validation/fields.js';
import { CALL_STATUSES, CallStatus, Resolution, RESOLUTIONS } from '../domain/collection-call.js';
import type { CallView } from '../application/collections.service.js';

export class CallListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CALL_STATUSES })
  @IsOptional()
  @IsIn(CALL_STATUSES, { message: `status must be one of ${CALL_STATUSES.join(', ')}` })
  status?: CallStatus;

  @QueryIdField({ optional: true, description: 'Only calls assigned to this user.', example: 7 })
  assignedto?: number;

  @QueryIdField({ optional: true, description: 'Only this customer’s calls (an unknown customer has none).', example: 42 })
  customerid?: number;
}

export class AssignCallRequest {
  @IdField({ example: 12 })
  callid: number;

  @IdField({ example: 7, description: 'An active user with role COLLECTOR.' })
  userid: number;
}

export class UpdateCallRequest {
  @IdField({ example: 12 })
  callid: number;

  @EnumField([CallStatus.PENDING, CallStatus.CALLED, CallStatus.RESOLVED], {
    example: 'CALLED',
    description: 'The next status: PENDING → CALLED → RESOLVED.',
  })
  status: CallStatus;

  @TextField({ example: 'Spoke to the customer; will pay on Friday.' })
  notes: string;

  @DateField({
    optional: true,
    example: '2026-03-13',
    description: 'The day the customer promised to pay; today or later.',
  })
  promisedate?: string;
}

export class CallResponse implements CallView {
  @ApiProperty({ type: 'integer', example: 12 }) callid: number;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ type: 'integer', example: 42 }) customerdealid: number;
  @ApiProperty({ example: 'Nakato Sarah' }) fullname: string;
  @ApiProperty({ example: '256772123456' }) telephone: string;
  @ApiProperty({ example: 'PAYG-000123', nullable: true, type: String }) payg: string | null;
  @ApiProperty({ enum: CALL_STATUSES, example: 'PENDING' }) status: CallStatus;
  @ApiProperty({
    example: 45000,
    description:
      'The least the customer must pay for the device to be UNLOCKED again (as of the last generation): the cost of the days from the start date to today inclusive, less bonus days, at monthly per 30 days rounded up to the cent, less the repayments made beyond the deposit; never more than the balance (paying the balance pays the deal off). Paying exactly this unlocks the device and resolves the call.',
  })
  amountinarrears: number;
  @ApiProperty({ type: 'integer', example: 6, description: 'Days since the paid-up date (as of the last generation).' })
  daysoverdue: number;
  @ApiProperty({ format: 'date', example: '2026-03-04' }) nextpaymentdate: string;
  @ApiProperty({ type: 'integer', example: 7, nullable: true }) assignedto: number | null;
  @ApiProperty({ example: 'Spoke to the customer; will pay on Friday.', nullable: true, type: String })
  notes: string | null;
  @ApiProperty({ format: 'date', example: '2026-03-13', nullable: true, type: String }) promisedate: string | null;
  @ApiProperty({
    enum: RESOLUTIONS,
    nullable: true,
    example: null,
    description:
      'Who or what resolved the call: COLLECTOR (the collector marked it RESOLVED), PAYMENT or BONUS_DAYS (the deal came up to date), REPOSSESSED (the device was taken back).',
  })
  resolution: Resolution | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T06:00:00.000Z' }) createdat: string;
  @ApiProperty({ format: 'date-time', example: null, nullable: true, type: String }) calledat: string | null;
  @ApiProperty({ format: 'date-time', example: null, nullable: true, type: String }) resolvedat: string | null;
}

export class GenerateCallsResponse {
  @ApiProperty({ type: 'integer', example: 3, description: 'Calls opened by this run.' }) opened: number;
  @ApiProperty({
    type: 'integer',
    example: 5,
    description: 'Open calls whose arrears or days overdue were brought up to today.',
  })
  refreshed: number;
  @ApiProperty({ format: 'date', example: '2026-03-10', description: 'The business day the run used.' }) today: string;
}

export class CallStatsResponse {
  @ApiProperty({ type: 'integer', example: 4 }) PENDING: number;
  @ApiProperty({ type: 'integer', example: 2 }) CALLED: number;
  @ApiProperty({ type: 'integer', example: 9 }) RESOLVED: number;
}
