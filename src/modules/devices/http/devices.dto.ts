import { ApiProperty } from '@nestjs/swagger';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { PageQuery } from '../../../common/http/pagination.js';
import { EnumField, IdentifierField, IntField, PaygField, QueryIdField } from '../../../common/validation/fields.js';
import type { CommandView } from '../../device-commands/application/device-commands.service.js';
import { CommandStatus, DeviceAction } from '../../device-commands/domain/device-command.js';

const COMMAND_STATUSES = Object.values(CommandStatus);
const DEVICE_ACTIONS = Object.values(DeviceAction);

export class LockUpdateRequest extends CustomerIdRequest {
  @PaygField({ description: 'The final PAYG code: 3–64 letters, digits, dashes or underscores, unique regardless of letter case (409 when another customer holds it).' })
  payg: string;

  @IdentifierField({ example: 'SN-7781-2231' })
  serialnumber: string;
}

export class UnlockTempRequest extends CustomerIdRequest {
  @IntField(1, 168, { example: 24 })
  hours: number;
}

export class SyncStatusRequest extends CustomerIdRequest {}

export class CommandsQuery extends PageQuery {
  @QueryIdField({ optional: true, example: 42, description: 'Only this customer’s commands (404 when the customer does not exist); without it, every customer’s.' })
  customerid?: number;

  @EnumField(COMMAND_STATUSES, { optional: true, example: 'PENDING', description: 'Only commands in this delivery state (PENDING: not yet accepted by the lock platform).' })
  status?: CommandStatus;

  @EnumField(DEVICE_ACTIONS, { optional: true, example: 'LOCK', description: 'Only commands of this action.' })
  action?: DeviceAction;
}

export class CommandResponse implements CommandView {
  @ApiProperty({ example: '3f7a0d6e-1b7c-4d3e-9a51-0f1e2d3c4b5a' }) commandid: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ enum: DEVICE_ACTIONS, example: 'UNLOCK' }) action: string;
  @ApiProperty({ enum: COMMAND_STATUSES, example: 'DELIVERED' }) status: string;
  @ApiProperty({ format: 'date', example: '2026-04-09', nullable: true, type: String }) nextpaymentdate: string | null;
  @ApiProperty({ format: 'date-time', example: null, nullable: true, type: String }) unlockuntil: string | null;
  @ApiProperty({ example: 'payment CASH-1' }) reason: string;
  @ApiProperty({ type: 'integer', example: 1 }) attempts: number;
  @ApiProperty({ example: null, nullable: true, type: String }) lasterror: string | null;
  @ApiProperty({ format: 'date-time', example: null, nullable: true, type: String, description: 'When a pending command is tried next.' }) nextattemptat: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T08:00:00.000Z' }) createdat: string;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T08:00:01.000Z', nullable: true, type: String }) deliveredat: string | null;
}

export class LockUpdateResponse {
  @ApiProperty({ example: 'Device details stored.' }) message: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ example: 'PAYG-000123' }) payg: string;
  @ApiProperty({ example: 'SN-7781-2231' }) serialnumber: string;
  @ApiProperty({ type: 'integer', example: 1, description: 'Waiting unmatched payments with this code that were credited now.' }) appliedpayments: number;
}

export class UnlockTempResponse {
  @ApiProperty({ example: 'Device unlocked until 2026-03-11T08:00:00.000Z.' }) message: string;
  @ApiProperty({ format: 'date-time', example: '2026-03-11T08:00:00.000Z' }) unlockuntil: string;
  @ApiProperty({ type: CommandResponse }) command: CommandResponse;
}

export class SyncResponse {
  @ApiProperty({ example: 'Deal state queued for the device.' }) message: string;
  @ApiProperty({ type: CommandResponse }) command: CommandResponse;
}

