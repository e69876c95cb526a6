import { Body, Controller, Post } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { TextField } from '../../../common/validation/fields.js';
import { ContractsService } from '../application/contracts.service.js';
import { CustomerDealResponse } from '../customer-deal.response.js';

export class RepossessRequest extends CustomerIdRequest {
  @TextField({ example: 'Three months without payment; customer unreachable.' })
  reason: string;
}

export class RepossessResponse {
  @ApiProperty({ example: 'Contract repossessed; the device will be locked permanently.' }) message: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ example: 'REPOSSESSED' }) status: string;
  @ApiProperty({ example: 'Three months without payment; customer unreachable.' }) reason: string;
  @ApiProperty({ format: 'date-time', example: '2026-06-01T10:00:00.000Z' }) repossessedat: string;
  @ApiProperty({ type: CustomerDealResponse }) deal: CustomerDealResponse;
}

@ApiTags('Contracts')
@Controller('finance/contracts')
export class ContractsController {
  constructor(private readonly contracts: ContractsService) {}

  @Post('repossess')
  @Endpoint({
    summary: 'Repossess: end the contract and lock the device for good',
    description: 'Contract, deal and customer become REPOSSESSED, with the reason and time kept; PERMANENT_LOCK is queued. Later payments are recorded but unlock nothing. A second repossession is 409, and so is a paid-off deal whose device (IMEI) has been financed again (another customer’s deal is on it).',
    roles: [Role.OPERATOR],
    response: RepossessResponse,
    errors: [404, 409],
  })
  async repossess(@Body() body: RepossessRequest, @CurrentUser() user: AuthUser): Promise<RepossessResponse> {
    const { deal, repossessedat } = await this.contracts.repossess(body.customerid, body.reason, user);
    const message = 'Contract repossessed; the device will be locked permanently.';
    return { message, customerid: body.customerid, status: 'REPOSSESSED', reason: body.reason, repossessedat: repossessedat.toISOString(), deal };
  }
}
