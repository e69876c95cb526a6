import { ApiProperty } from '@nestjs/swagger';
import type { CustomerDealView } from './application/contract-view.js';
import { DealStatus } from './domain/credit-policy.js';

/** A customer's deal in responses: published at the module's root for the other modules' responses that embed it. */
export class CustomerDealResponse implements CustomerDealView {
  @ApiProperty({ type: 'integer', example: 42 }) customerdealid: number;
  @ApiProperty({ type: 'integer', example: 1 }) dealid: number;
  @ApiProperty({ example: 'Tecno Spark 20 – 12 months' }) dealname: string;
  @ApiProperty({ enum: Object.values(DealStatus), example: 'LOCKED' }) status: DealStatus;
  @ApiProperty({ example: 600000 }) totalamount: number;
  @ApiProperty({ example: 45000 }) monthly: number;
  @ApiProperty({ example: 60000 }) depositpaid: number;
  @ApiProperty({ example: 60000, description: 'Every payment, deposit included.' }) amountpaid: number;
  @ApiProperty({ example: 540000, description: 'totalamount − amountpaid, never below 0.' }) balance: number;
  @ApiProperty({ example: 0, description: 'Paid beyond the total.' }) overpaid: number;
  @ApiProperty({ type: 'integer', example: 0 }) bonusdays: number;
  @ApiProperty({ format: 'date', example: '2026-01-15' }) startdate: string;
  @ApiProperty({ format: 'date', example: '2026-01-15', description: 'startdate + days bought (30 per monthly instalment) + bonus days.' }) nextpaymentdate: string;
}
