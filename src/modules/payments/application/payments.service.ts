import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { Money } from '../../../common/money/money.js';
import { PaymentView } from '../../accounts/application/ledger.service.js';
import { LedgerService } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/infrastructure/payment.entity.js';
import { CustomerDealView } from '../../customers/application/customer-views.js';
import { DealStateService } from '../../customers/application/deal-state.service.js';
import { CustomersService } from '../../customers/application/customers.service.js';

@Injectable()
export class PaymentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credit: DealStateService,
    private readonly customers: CustomersService,
    private readonly ledger: LedgerService,
  ) {}

  /** A cash payment an operator loads: recorded and applied to the deal in one transaction. */
  async load(input: { customerid: number; amount: number; reference: string; narration: string }, actor: AuthUser): Promise<{ message: string; payment: PaymentView; deal: CustomerDealView }> {
    const result = await this.dataSource.transaction((em) =>
      this.credit.credit(em, {
        customerId: input.customerid,
        amount: Money.of(input.amount),
        reference: input.reference,
        narration: input.narration,
        type: PaymentType.MANUAL,
        createdBy: actor.id,
      }),
    );
    return { message: 'Payment recorded.', payment: result.payment!, deal: result.deal };
  }

  async recent(customerId: number, limit: number): Promise<PaymentView[]> {
    await this.customers.assertExists(customerId);
    return this.ledger.recent(customerId, limit);
  }
}
