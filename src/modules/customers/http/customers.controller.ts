import { Body, Controller, Get, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { CustomerIdParam, CustomerIdRequest } from '../../../common/http/customer-request.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { CustomersService } from '../application/customers.service.js';
import {
  CustomerListQuery,
  CustomerResponse,
  FindCustomerRequest,
  RegisterCustomerRequest,
  RegisterCustomerResponse,
  SalesStageRequest,
  StatusSummaryResponse,
} from './customers.dto.js';

const READERS = [Role.OPERATOR, Role.COLLECTOR];

@ApiTags('Customers')
@Controller('finance/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post('register')
  @Endpoint({
    summary: 'Register a customer on a deal',
    description:
      'Creates, in one transaction, the customer’s User (username = telephone, cannot sign in), Account, Customer (PENDING), CustomerDeal (LOCKED, terms copied from the deal, start and next payment date today) and the deposit as the first ledger payment (type DEPOSIT). Unknown deal 404; deactivated deal 409; deposit below the deal’s deposit or above its total 400; telephone, IMEI or PAYG code already registered 409.',
    roles: [Role.OPERATOR],
    status: HttpStatus.CREATED,
    response: RegisterCustomerResponse,
    errors: [404, 409],
  })
  register(@Body() body: RegisterCustomerRequest, @CurrentUser() user: AuthUser): Promise<RegisterCustomerResponse> {
    return this.customers.register(body, user);
  }

  @Post('salesstage')
  @Endpoint({ summary: 'Set a customer’s sales stage', roles: [Role.OPERATOR], response: CustomerResponse, errors: [404] })
  salesStage(@Body() body: SalesStageRequest): Promise<CustomerResponse> {
    return this.customers.setSalesStage(body.customerid, body.salesstage);
  }

  @Post('approve')
  @Endpoint({ summary: 'Approve a PENDING customer', description: 'PENDING → APPROVED; any other status 409.', roles: [Role.OPERATOR], response: CustomerResponse, errors: [404, 409] })
  approve(@Body() body: CustomerIdRequest): Promise<CustomerResponse> {
    return this.customers.approve(body.customerid);
  }

  @Post('find')
  @Endpoint({ summary: 'Find a customer by account number', roles: READERS, response: CustomerResponse, errors: [404] })
  find(@Body() body: FindCustomerRequest): Promise<CustomerResponse> {
    return this.customers.findByAccountNumber(body.accountnumber);
  }

  @Get('status-summary')
  @Endpoint({ summary: 'Count customers by status', description: 'Always lists PENDING, APPROVED and REPOSSESSED.', roles: READERS, response: StatusSummaryResponse })
  statusSummary(): Promise<StatusSummaryResponse> {
    return this.customers.statusSummary();
  }

  @Get()
  @Endpoint({ summary: 'List customers', description: 'Newest first; filter by status, sales stage, or search.', roles: READERS, response: PageOf(CustomerResponse) })
  list(@Query() query: CustomerListQuery): Promise<Page<CustomerResponse>> {
    return this.customers.list({ status: query.status, salesstage: query.salesstage, search: query.search }, query.page, query.limit);
  }

  @Get(':customerid')
  @Endpoint({ summary: 'One customer with account and deal', roles: READERS, response: CustomerResponse, errors: [404] })
  get(@Param() params: CustomerIdParam): Promise<CustomerResponse> {
    return this.customers.get(params.customerid);
  }
}
