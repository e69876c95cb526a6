import { Body, Controller, HttpStatus, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { MobileMoneyService } from '../application/mobile-money.service.js';
import { PaymentsService } from '../application/payments.service.js';
import { LoadPaymentRequest, LoadPaymentResponse, PaymentResponse, ReconRequest, ReconResponse, RecentPaymentsRequest } from './payments.dto.js';

@ApiTags('Payments')
@Controller('finance/payments')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly mobileMoney: MobileMoneyService,
  ) {}

  @Post('load')
  @Endpoint({
    summary: 'Load a cash payment',
    description:
      'Records a MANUAL payment against the customer’s deal and applies the credit policy in the same transaction: balance reduced, nextpaymentdate recomputed, LOCKED → UNLOCKED when it moves past today, PAID_OFF at zero balance (the excess kept as overpaid). A repossessed deal records the money and stays REPOSSESSED. Answers the payment and the deal after it.',
    roles: [Role.OPERATOR],
    status: HttpStatus.CREATED,
    response: LoadPaymentResponse,
    errors: [404, 409],
  })
  load(@Body() body: LoadPaymentRequest, @CurrentUser() user: AuthUser): Promise<LoadPaymentResponse> {
    return this.payments.load(body, user);
  }

  @Post('recent')
  @Endpoint({ summary: 'Recent payments of a customer, newest first', roles: [Role.OPERATOR, Role.COLLECTOR], response: [PaymentResponse], errors: [404] })
  recent(@Body() body: RecentPaymentsRequest): Promise<PaymentResponse[]> {
    return this.payments.recent(body.customerid, body.limit ?? 20);
  }

  @Post('recon')
  @Endpoint({
    summary: 'Reconcile one mobile-money transaction',
    description: 'Looks at what this service has first, then asks the provider. Status: APPLIED, ALREADY_APPLIED, UNMATCHED, NOT_FOUND or FAILED (the provider reports it failed or pending).',
    roles: [Role.OPERATOR],
    response: ReconResponse,
    errors: [502, 503],
  })
  recon(@Body() body: ReconRequest): Promise<ReconResponse> {
    return this.mobileMoney.recon(body.reference);
  }
}
