import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination.js';
import { EnumField, IdentifierField, IdField, ImeiField, MoneyField, PaygField, PersonNameField, SearchField, TelephoneField } from '../../../common/validation/fields.js';
import { CustomerDealResponse } from '../../contracts/customer-deal.response.js';
import { CUSTOMER_STATUSES, CustomerStatus, SALES_STAGES, SalesStage } from '../domain/customer.js';
import type { AccountView, CustomerView } from '../application/customer-views.js';

export class RegisterCustomerRequest {
  @PersonNameField({ example: 'Amina Nakato' })
  fullname: string;

  @TelephoneField({ example: '+256772555001' })
  telephone: string;

  @IdField({ example: 1 })
  dealid: number;

  @MoneyField({ example: 60000, description: 'At least the deal’s deposit and at most its total.' })
  deposit: number;

  @PersonNameField({ example: 'Joseph Okello' })
  guarantorname: string;

  @TelephoneField({ example: '0701987654', description: 'The guarantor’s telephone number, read and stored like `telephone` (E.164).' })
  guarantorcontact: string;

  @ImeiField()
  imei: string;

  @PaygField()
  payg: string;
}

export class RegisterCustomerResponse {
  @ApiProperty({ example: 'Customer registered successfully.' }) message: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
}

export class SalesStageRequest extends CustomerIdRequest {
  @EnumField(SALES_STAGES, { example: SalesStage.VERIFICATION })
  salesstage: SalesStage;
}

export class FindCustomerRequest {
  @IdentifierField({ example: 'AC000000420', max: 20 })
  accountnumber: string;
}

export class AccountInfoRequest {
  @IdField({ example: 42 })
  accountid: number;
}

export class CustomerListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  status?: CustomerStatus;

  @ApiPropertyOptional({ enum: SALES_STAGES })
  @IsOptional()
  @IsIn(SALES_STAGES)
  salesstage?: SalesStage;

  @SearchField({ description: 'Part of the name (a term with a letter), the last digits of the telephone (four or more), a whole telephone number as people write it, or a whole PAYG code, IMEI or account number.', example: 'Nakato' })
  search?: string;
}

export class CustomerResponse implements CustomerView {
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ example: 'Amina Nakato' }) fullname: string;
  @ApiProperty({ example: '+256772555001', description: 'E.164.' }) telephone: string;
  @ApiProperty({ example: 'Joseph Okello' }) guarantorname: string;
  @ApiProperty({ example: '+256701987654', description: 'E.164 (a value stored before numbers were checked may be as it was typed).' }) guarantorcontact: string;
  @ApiProperty({ example: '490154203237518' }) imei: string;
  @ApiProperty({ example: 'PAYG-000123' }) payg: string;
  @ApiProperty({ example: null, nullable: true, type: String }) serialnumber: string | null;
  @ApiProperty({ enum: SALES_STAGES, example: 'ENROLLMENT' }) salesstage: string;
  @ApiProperty({ enum: CUSTOMER_STATUSES, example: 'PENDING' }) status: string;
  @ApiProperty({ type: 'integer', example: 42 }) accountid: number;
  @ApiProperty({ example: 'AC000000420' }) accountnumber: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:00:00.000Z' }) createdat: string;
  @ApiProperty({ type: CustomerDealResponse }) deal: CustomerDealResponse;
}

export class StatusSummaryResponse {
  @ApiProperty({ type: 'integer', example: 12 }) PENDING: number;
  @ApiProperty({ type: 'integer', example: 30 }) APPROVED: number;
  @ApiProperty({ type: 'integer', example: 1 }) REPOSSESSED: number;
}

export class AccountResponse implements AccountView {
  @ApiProperty({ type: 'integer', example: 42 }) accountid: number;
  @ApiProperty({ example: 'AC000000420' }) accountnumber: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ example: 'Amina Nakato' }) fullname: string;
  @ApiProperty({ enum: CUSTOMER_STATUSES, example: 'APPROVED' }) status: string;
  @ApiProperty({ type: CustomerDealResponse }) deal: CustomerDealResponse;
}

