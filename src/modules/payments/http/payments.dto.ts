import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { DateField, IdentifierField, IdField, IntField, MoneyField, TextField } from '../../../common/validation/fields.js';
import { IgnoreUnknownFields } from '../../../common/validation/validation.pipe.js';
import { CustomerDealResponse } from '../../contracts/customer-deal.response.js';
import type { CallbackAnswer, LookupAnswer, UnmatchedView } from '../application/mobile-money.service.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { CallbackOutcome, NotificationStatus } from '../domain/mobile-money.js';
import type { PaymentView } from '../../accounts/application/ledger.service.js';

export class LoadPaymentRequest extends CustomerIdRequest {
  @MoneyField({ example: 45000 })
  amount: number;

  @IdentifierField({ example: 'CASH-2026-000123', description: 'Unique among operator receipts (a used one is 409). A mobile-money transaction id or a deposit reference with the same text is another payment: references live in one namespace per source.' })
  reference: string;

  @TextField({ example: 'Cash at Kampala branch' })
  narration: string;
}

export class RecentPaymentsRequest extends CustomerIdRequest {
  @IntField(1, 100, { example: 20, optional: true, description: '1–100; 20 when absent.' })
  limit?: number;
}

export class PaymentResponse implements PaymentView {
  @ApiProperty({ type: 'integer', example: 1001 }) paymentid: number;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ example: 45000 }) amount: number;
  @ApiProperty({ example: 'CASH-2026-000123' }) reference: string;
  @ApiProperty({ example: 'Cash at Kampala branch' }) narration: string;
  @ApiProperty({
    enum: Object.values(PaymentType),
    example: 'MANUAL',
    description: 'DEPOSIT (at registration), MANUAL (an operator’s receipt), MOBILE_MONEY (the provider’s), OPENING (what an imported customer had paid before the import: one row).',
  })
  type: PaymentType;
  @ApiProperty({ format: 'date-time', example: '2026-01-20T10:00:00.000Z' }) createdat: string;
}

export class LoadPaymentResponse {
  @ApiProperty({ example: 'Payment recorded.' }) message: string;
  @ApiProperty({ type: PaymentResponse }) payment: PaymentResponse;
  @ApiProperty({ type: CustomerDealResponse, description: 'The deal after the payment.' }) deal: CustomerDealResponse;
}

export class ReconRequest {
  @IdentifierField({ example: 'MP240115.1234.A56789', description: 'The mobile-money transaction id.' })
  reference: string;
}

export class ReconResponse {
  @ApiProperty({ example: 'MP240115.1234.A56789' }) reference: string;
  @ApiProperty({ enum: ['APPLIED', 'ALREADY_APPLIED', 'UNMATCHED', 'NOT_FOUND', 'FAILED'], example: 'APPLIED' }) status: string;
  @ApiProperty({ example: 'Matched to a customer and credited.' }) message: string;
}

@IgnoreUnknownFields()
export class CallbackTransaction {
  @IdentifierField({ example: 'MP240115.1234.A56789' })
  id: string;

  @MoneyField({ example: 45000 })
  amount: number;

  @IdentifierField({ example: 'PAYG-000123', allowEmpty: true, description: 'The customer’s PAYG code. Empty when the payer gave none: the money is kept as unmatched for an operator to assign.' })
  tag: string;
}

@IgnoreUnknownFields()
export class CallbackRequest {
  @ApiProperty({ type: CallbackTransaction })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CallbackTransaction)
  transaction: CallbackTransaction;
}

export class CallbackResponse implements CallbackAnswer {
  @ApiProperty({ example: 'Payment applied.' }) message: string;
  @ApiProperty({ enum: CallbackOutcome, example: 'APPLIED' }) status: CallbackOutcome;
  @ApiProperty({ type: 'integer', example: 42, required: false }) customerid?: number;
}

export class LookupRequest {
  @DateField({ example: '2026-01-01' })
  startdate: string;

  @DateField({ example: '2026-01-31' })
  enddate: string;
}

export class LookupResponse implements LookupAnswer {
  @ApiProperty({ type: 'integer', example: 12, description: 'Transactions the provider reported for the range.' }) checked: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Newly credited, including stored unmatched ones that now match.' }) applied: number;
  @ApiProperty({ type: 'integer', example: 9, description: 'Already recorded before.' }) duplicates: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Stored, but no customer has their tag.' }) unmatched: number;
}

export class AssignRequest {
  @IdentifierField({ example: 'MP240115.1234.A56789' })
  transactionid: string;

  @IdField({ example: 42 })
  customerid: number;
}

export class AssignResponse {
  @ApiProperty({ example: 'Payment applied.' }) message: string;
  @ApiProperty({ example: 'MP240115.1234.A56789' }) transactionid: string;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ type: PaymentResponse }) payment: PaymentResponse;
  @ApiProperty({ type: CustomerDealResponse }) deal: CustomerDealResponse;
}

export class UnmatchedResponse implements UnmatchedView {
  @ApiProperty({ example: 'MP240115.1234.A56789' }) transactionid: string;
  @ApiProperty({ example: 45000 }) amount: number;
  @ApiProperty({ example: 'PAYG-UNKNOWN' }) tag: string;
  @ApiProperty({ enum: ['CALLBACK', 'LOOKUP', 'RECON'], example: 'CALLBACK' }) source: string;
  @ApiProperty({ enum: ['UNMATCHED', 'HELD'], example: 'UNMATCHED', description: 'UNMATCHED: no customer has the tag (matched again on every look-up and at registration). HELD: crediting failed; an operator must assign it.' })
  status: NotificationStatus;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why a HELD payment could not be credited; null when UNMATCHED.' }) reason: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-01-20T10:00:00.000Z' }) receivedat: string;
}

