import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../../common/auth/role.js';
import { Money } from '../../../common/money/money.js';
import { LedgerService, PaymentView } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { CustomerDealView } from '../../contracts/application/contract-view.js';
import { ContractsService } from '../../contracts/application/contracts.service.js';
import { CustomersService } from '../../customers/application/customers.service.js';

@Injectable()
export class PaymentsService {
  constructor(
    private readonly contracts: ContractsService,
    private readonly customers: CustomersService,
    private readonly ledger: LedgerService,
  ) {}

  /** A cash payment an operator loads: recorded and applied to the deal in one transaction. */
  async load(input: { customerid: number; amount: number; reference: string; narration: string }, actor: AuthUser): Promise<{ message: string; payment: PaymentView; deal: CustomerDealView }> {
    const result = await this.contracts.creditNow({
      customerId: input.customerid,
      amount: Money.of(input.amount),
      reference: input.reference,
      narration: input.narration,
      type: PaymentType.MANUAL,
      createdBy: actor.id,
    });
    return { message: 'Payment recorded.', payment: result.payment, deal: result.deal };
  }

  async recent(customerId: number, limit: number): Promise<PaymentView[]> {
    await this.customers.assertExists(customerId);
    return this.ledger.recent(customerId, limit);
  }
}
