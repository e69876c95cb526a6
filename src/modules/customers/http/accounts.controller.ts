import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Role } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { CustomersService } from '../application/customers.service.js';
import { AccountInfoRequest, AccountResponse } from './customers.dto.js';

/** Account look-ups answer with the customer and deal behind the account, which this module owns. */
@ApiTags('Accounts')
@Controller('finance/accounts')
export class AccountsController {
  constructor(private readonly customers: CustomersService) {}

  @Post('info')
  @Endpoint({ summary: 'Account information', roles: [Role.OPERATOR], response: AccountResponse, errors: [404] })
  info(@Body() body: AccountInfoRequest): Promise<AccountResponse> {
    return this.customers.accountInfo(body.accountid);
  }
}
