import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { DevicesService } from '../application/devices.service.js';
import {
  CommandResponse,
  CommandsQuery,
  LockUpdateRequest,
  LockUpdateResponse,
  SyncResponse,
  SyncStatusRequest,
  UnlockTempRequest,
  UnlockTempResponse,
} from './devices.dto.js';

@ApiTags('Device / PAYG')
@Controller('finance/device')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Post('lock-update')
  @Endpoint({
    summary: 'Store the final PAYG code and serial number after the platform confirmed a lock',
    description: 'A PAYG code another customer holds is 409. The customer’s device commands not delivered yet are sent with the new details. Unmatched mobile-money payments waiting with this code are credited in the same transaction.',
    roles: [Role.OPERATOR],
    response: LockUpdateResponse,
    errors: [404, 409],
  })
  lockUpdate(@Body() body: LockUpdateRequest): Promise<LockUpdateResponse> {
    return this.devices.lockUpdate(body.customerid, body.payg, body.serialnumber);
  }

  @Post('unlock-temp')
  @Endpoint({
    summary: 'Unlock the device for 1–168 hours',
    description: 'Queues TEMP_UNLOCK with unlockuntil = now + hours. The deal’s status and balance do not change; when the time is up the device’s real state is queued again. Meanwhile what would lock the device before then (the deal falling due, a payment or bonus days whose paid-up date comes by the unlock’s last day) is recorded and waits for that. A repossessed device stays locked (409).',
    roles: [Role.OPERATOR],
    response: UnlockTempResponse,
    errors: [404, 409],
  })
  unlockTemp(@Body() body: UnlockTempRequest, @CurrentUser() user: AuthUser): Promise<UnlockTempResponse> {
    return this.devices.unlockTemp(body.customerid, body.hours, user);
  }

  @Post('sync-status')
  @Endpoint({
    summary: 'Re-push the current deal state to the device',
    description: 'Queues SYNC with the current nextpaymentdate (RELEASE again for a paid-off deal). 409, and nothing queued, when nextpaymentdate is not in the future, the deal is repossessed, or the deal is paid off and its device (IMEI) has been financed again (another customer’s deal is on it).',
    roles: [Role.OPERATOR],
    response: SyncResponse,
    errors: [404, 409],
  })
  syncStatus(@Body() body: SyncStatusRequest, @CurrentUser() user: AuthUser): Promise<SyncResponse> {
    return this.devices.syncStatus(body.customerid, user);
  }

  @Get('commands')
  @Endpoint({
    summary: 'The device-command outbox, newest first: every command, or one customer’s',
    description: 'Paged: each command with its action, delivery state, attempts and last error. Filters: customerid, status, action (combined with AND). A filter value outside its set is 400; an unknown customer 404.',
    roles: [Role.OPERATOR],
    response: PageOf(CommandResponse),
    errors: [404],
  })
  commands(@Query() query: CommandsQuery): Promise<Page<CommandResponse>> {
    return this.devices.listCommands({ customerId: query.customerid, status: query.status, action: query.action }, query.page, query.limit);
  }
}
