import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { EmptyBodyPipe } from '../../../common/validation/validation.pipe.js';
import { CollectionsService } from '../application/collections.service.js';
import {
  AssignCallRequest,
  CallListQuery,
  CallResponse,
  CallStatsResponse,
  GenerateCallsResponse,
  UpdateCallRequest,
} from './collections.dto.js';

@ApiTags('Collections')
@Controller('finance/collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Post('generate')
  @Endpoint({
    summary: 'Open calls for overdue deals',
    description:
      'Opens one PENDING call for each overdue deal — paid-up date today or earlier (the device is locked on its paid-up date), neither PAID_OFF nor REPOSSESSED — that has no open call, with its amount in arrears (the least that unlocks the device again) and days overdue; brings the figures of open calls on such deals up to today. Calls of repossessed or paid-off deals are never opened, refreshed or reopened. Running it again opens nothing new. A scheduled job does the same every COLLECTIONS_GENERATE_MINUTES (daily by default).',
    roles: [Role.COLLECTOR],
    response: GenerateCallsResponse,
  })
  generate(@Body(EmptyBodyPipe) _body: Record<string, never>): Promise<GenerateCallsResponse> {
    return this.collections.generate();
  }

  @Get('calls')
  @Endpoint({
    summary: 'List collection calls',
    description: 'Paged, most days overdue first; filters `status`, `assignedto` (a user id) and `customerid`, combined with AND.',
    roles: [Role.COLLECTOR, Role.OPERATOR],
    response: PageOf(CallResponse),
  })
  list(@Query() query: CallListQuery): Promise<Page<CallResponse>> {
    return this.collections.list(
      { status: query.status, assignedto: query.assignedto, customerid: query.customerid },
      query.page,
      query.limit,
    );
  }

  @Post('assign')
  @Endpoint({
    summary: 'Assign a call to a collector',
    description:
      'Unknown call or user 404; the user must be an active COLLECTOR and the call not RESOLVED (409). ADMIN and OPERATOR assign any call; a COLLECTOR may only claim, for themselves, a call that no other collector holds (403 `Forbidden.` otherwise).',
    roles: [Role.COLLECTOR, Role.OPERATOR],
    response: CallResponse,
    errors: [404, 409],
  })
  assign(@Body() body: AssignCallRequest, @CurrentUser() user: AuthUser): Promise<CallResponse> {
    return this.collections.assign(body.callid, body.userid, user);
  }

  @Post('update')
  @Endpoint({
    summary: 'Record a call’s progress',
    description:
      'Only PENDING → CALLED → RESOLVED (409 for any other move); notes replace the previous ones; promisedate (today or later) records a promise to pay. A COLLECTOR updates only the calls assigned to them (403 `Forbidden.` otherwise, unassigned calls included: claim one with `assign` first); ADMIN and OPERATOR update any. A payment or bonus days that bring the deal up to date resolve its open call by themselves (resolution PAYMENT or BONUS_DAYS), and so does a repossession (resolution REPOSSESSED).',
    roles: [Role.COLLECTOR, Role.OPERATOR],
    response: CallResponse,
    errors: [404, 409],
  })
  update(@Body() body: UpdateCallRequest, @CurrentUser() user: AuthUser): Promise<CallResponse> {
    return this.collections.update(body, user);
  }

  @Get('stats')
  @Endpoint({
    summary: 'Calls by status',
    description: 'Always all three keys, as integers.',
    roles: [Role.COLLECTOR],
    response: CallStatsResponse,
  })
  stats(): Promise<CallStatsResponse> {
    return this.collections.stats();
  }
}
