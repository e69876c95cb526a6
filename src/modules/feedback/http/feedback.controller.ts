import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { FeedbackService } from '../application/feedback.service.js';
import {
  CreateFeedbackRequest,
  FeedbackListQuery,
  FeedbackResponse,
} from './feedback.dto.js';

const STAFF = [Role.OPERATOR, Role.COLLECTOR];

@ApiTags('Feedback')
@Controller('finance/feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post('create')
  @Endpoint({
    summary: 'Record a customer’s feedback',
    description: 'Answers the stored record. Unknown customer 404.',
    roles: STAFF,
    status: HttpStatus.CREATED,
    response: FeedbackResponse,
    errors: [404],
  })
  create(@Body() body: CreateFeedbackRequest, @CurrentUser() user: AuthUser): Promise<FeedbackResponse> {
    return this.feedback.create(body, user.id);
  }

  @Get()
  @Endpoint({
    summary: 'List feedback',
    description: 'Paged, newest first; `customerid` keeps one customer’s (404 when unknown).',
    roles: STAFF,
    response: PageOf(FeedbackResponse),
    errors: [404],
  })
  list(@Query() query: FeedbackListQuery): Promise<Page<FeedbackResponse>> {
    return this.feedback.list(query.page, query.limit, query.customerid);
  }
}
