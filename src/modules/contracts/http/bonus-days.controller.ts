import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { IntField } from '../../../common/validation/fields.js';
import { BonusGrantedView, ContractsService } from '../application/contracts.service.js';
import { CustomerDealResponse } from '../customer-deal.response.js';

export class BonusDaysRequest extends CustomerIdRequest {
  @IntField(1, 365, { example: 7 })
  days: number;
}

export class BonusDaysResponse implements BonusGrantedView {
  @ApiProperty({ example: '7 bonus days granted.' }) message: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ type: CustomerDealResponse }) deal: CustomerDealResponse;
}

/** The interface names bonus days twice, once among the customer routes and once among the device routes; they are one action. */
const ROUTES = ['customers/bonus', 'device/bonus-days'];

@ApiTags('Customers', 'Device / PAYG')
@Controller('finance')
export class BonusDaysController {
  constructor(private readonly contracts: ContractsService) {}

  @Post(ROUTES)
  @Endpoint({
    summary: 'Give a customer bonus days (1–365)',
    description: 'customers/bonus and device/bonus-days are the same action: nextpaymentdate extended by the days given, balance untouched, recorded with who granted them and through which route, SYNC queued. A repossessed or paid-off deal gets none (409).',
    roles: [Role.OPERATOR],
    response: BonusDaysResponse,
    errors: [404, 409],
  })
  grant(@Body() body: BonusDaysRequest, @CurrentUser() user: AuthUser, @Req() request: FastifyRequest): Promise<BonusDaysResponse> {
    const route = ROUTES.find((r) => request.routeOptions.url?.endsWith(`/${r}`))!;
    return this.contracts.grantBonusNow(body.customerid, body.days, user, route);
  }
}
