import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { PageQuery, Page, PageOf } from '../../../common/http/pagination.js';
import { MobileMoneyService } from '../application/mobile-money.service.js';
import { AssignRequest, AssignResponse, CallbackRequest, CallbackResponse, LookupRequest, LookupResponse, UnmatchedResponse } from './payments.dto.js';

@ApiTags('Mobile money')
@Controller('finance/amlogs')
export class AmlogsController {
  constructor(private readonly mobileMoney: MobileMoneyService) {}

  @Post('callback')
  @Endpoint({
    summary: 'Mobile-money payment notification',
    description:
      'Stored once by transaction.id, with the body as sent. The tag is matched to a customer’s PAYG code (letter case and surrounding spaces ignored): APPLIED (credited), UNMATCHED (kept for matching later, or — when crediting failed — kept for an operator with the reason), DUPLICATE (the same id and amount again: nothing changes). The same id with another amount is 409. Concurrent copies credit exactly once. Fields this service does not use are ignored (a webhook), the ones it uses are validated. Transaction ids are the provider’s namespace: an operator receipt or deposit reference with the same text is another payment.',
    roles: [Role.PROVIDER],
    response: CallbackResponse,
    errors: [409],
  })
  callback(@Body() body: CallbackRequest, @Req() request: { body: unknown }): Promise<CallbackResponse> {
    return this.mobileMoney.receive(body.transaction, 'CALLBACK', request.body);
  }

  @Post('lookup')
  @Endpoint({
    summary: 'Fetch a date range from the provider and apply what is missing',
    description: 'Range of at most 31 days, startdate ≤ enddate. Only SUCCESS transactions are applied; stored unmatched ones are matched again. Provider unreachable 502, not configured 503: nothing is applied then.',
    roles: [Role.OPERATOR],
    response: LookupResponse,
    errors: [502, 503],
  })
  lookup(@Body() body: LookupRequest): Promise<LookupResponse> {
    return this.mobileMoney.lookup(body.startdate, body.enddate);
  }

  @Get('unmatched')
  @Endpoint({ summary: 'Mobile-money payments waiting for an operator (suspense): unmatched, or held because crediting failed', roles: [Role.OPERATOR], response: PageOf(UnmatchedResponse) })
  unmatched(@Query() query: PageQuery): Promise<Page<UnmatchedResponse>> {
    return this.mobileMoney.unmatched(query.page, query.limit);
  }

  @Post('assign')
  @Endpoint({ summary: 'Apply a waiting (unmatched or held) payment to a customer', roles: [Role.OPERATOR], response: AssignResponse, errors: [404, 409] })
  assign(@Body() body: AssignRequest, @CurrentUser() user: AuthUser): Promise<AssignResponse> {
    return this.mobileMoney.assign(body.transactionid, body.customerid, user.id);
  }
}
