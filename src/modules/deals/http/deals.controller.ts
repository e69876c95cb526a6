import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { DealsService } from '../application/deals.service.js';
import { CreateDealRequest, CreatedDealResponse, DealIdRequest, DealListQuery, DealResponse } from './deals.dto.js';

@ApiTags('Deals')
@Controller('finance/deals')
export class DealsController {
  constructor(private readonly deals: DealsService) {}

  @Post('create')
  @Endpoint({
    summary: 'Create a deal (catalogue entry)',
    description: 'Needs deposit ≤ totalamount and deposit + monthly × months ≥ totalamount (400 otherwise).',
    roles: [],
    status: HttpStatus.CREATED,
    response: CreatedDealResponse,
  })
  async create(@Body() body: CreateDealRequest, @CurrentUser() user: AuthUser): Promise<CreatedDealResponse> {
    return { message: 'Deal created.', ...(await this.deals.create(body, user.id)) };
  }

  @Post('deactivate')
  @Endpoint({
    summary: 'Deactivate a deal',
    description: 'New registrations on it are refused (409); customers already on it keep their terms. Idempotent.',
    roles: [],
    response: DealResponse,
    errors: [404],
  })
  deactivate(@Body() body: DealIdRequest): Promise<DealResponse> {
    return this.deals.deactivate(body.dealid);
  }

  @Get()
  @Endpoint({ summary: 'List deals', roles: [Role.OPERATOR], response: PageOf(DealResponse) })
  list(@Query() query: DealListQuery): Promise<Page<DealResponse>> {
    return this.deals.list(query.page, query.limit, query.active);
  }
}
