import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { MessagesService, OPERATOR_MESSAGES_PER_DAY } from '../application/messages.service.js';
import { MessageListQuery, SmsMessageResponse, PreferencesQuery, PreferencesRequest, PreferencesResponse, SendMessageRequest } from './messages.dto.js';

@ApiTags('Messages')
@Controller('finance')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get('messages')
  @Endpoint({
    summary: 'List customer messages (SMS)',
    description:
      'Paged, newest first; `customerid` keeps one customer’s (404 when unknown), `status` one state. PENDING: waiting to go (gateway not configured or down, quiet hours for a reminder); SENT: taken by the gateway; DELIVERED / FAILED: as its delivery report or refusal said (`failurereason`); CANCELLED: a reminder no longer due. Collectors may read them too (what the customer was told helps a call).',
    roles: [Role.OPERATOR, Role.COLLECTOR],
    response: PageOf(SmsMessageResponse),
    errors: [404],
  })
  list(@Query() query: MessageListQuery): Promise<Page<SmsMessageResponse>> {
    return this.messages.list({ customerId: query.customerid, status: query.status }, query.page, query.limit);
  }

  @Post('messages/send')
  @Endpoint({
    summary: 'Send a customer an operator’s own SMS',
    description: `Queued in the outbox and sent by the worker like every message (PENDING at first). Unknown customer 404. At most ${OPERATOR_MESSAGES_PER_DAY} operator messages to one customer in 24 hours: another → 429, nothing queued.`,
    roles: [Role.OPERATOR],
    status: HttpStatus.CREATED,
    response: SmsMessageResponse,
    errors: [404, 429],
  })
  send(@Body() body: SendMessageRequest, @CurrentUser() user: AuthUser): Promise<SmsMessageResponse> {
    return this.messages.sendOperatorMessage(body.customerid, body.text, user.id);
  }

  @Get('customers/preferences')
  @Endpoint({
    summary: 'Read a customer’s message language and reminder opt-out',
    description: 'What POST /finance/customers/preferences last set; for a customer whose preferences were never set, what applies to them: SMS_DEFAULT_LANGUAGE and no opt-out. Unknown customer 404.',
    roles: [Role.OPERATOR, Role.COLLECTOR],
    response: PreferencesResponse,
    errors: [404],
  })
  readPreferences(@Query() query: PreferencesQuery): Promise<PreferencesResponse> {
    return this.messages.preferencesOf(query.customerid);
  }

  @Post('customers/preferences')
  @Endpoint({
    summary: 'Set a customer’s message language and reminder opt-out',
    description: 'Messages written from now on use `language` (until set: SMS_DEFAULT_LANGUAGE). `smsoptout`: no payment reminders, including ones already queued; receipts, lock and paid-off notices still go. Unknown customer 404.',
    roles: [Role.OPERATOR],
    response: PreferencesResponse,
    errors: [404],
  })
  preferences(@Body() body: PreferencesRequest, @CurrentUser() user: AuthUser): Promise<PreferencesResponse> {
    return this.messages.setPreferences(body.customerid, body.language, body.smsoptout, user.id);
  }
}
