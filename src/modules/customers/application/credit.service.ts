import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Money } from '../../../common/money/money.js';
import { LedgerService, PaymentView } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/infrastructure/payment.entity.js';
import { customerNotFound } from '../domain/customer.js';
import { applyPayment, ContractTerms, DealState, DealStatus } from '../domain/credit-policy.js';
import { CustomerDealRow, CustomerDealsRepository } from '../infrastructure/customer-deals.repository.js';
import { CustomerDealView } from './customer-views.js';
import { CustomersService } from './customers.service.js';

export interface CreditInput {
  customerId: number;
  amount: Money;
  reference: string;
  narration: string;
  type: PaymentType;
  createdBy: number | null;
  /** Notifications: a reference already in the ledger is not an error, it is credited already. */
  skipIfRecorded?: boolean;
}

export interface CreditResult {
  /** null when skipIfRecorded found the reference in the ledger: nothing changed. */
  payment: PaymentView | null;
  before: DealStatus;
  deal: CustomerDealView;
}

export function termsOf(row: CustomerDealRow): ContractTerms {
  return { totalamount: Money.of(row.totalamount), monthly: Money.of(row.monthly), depositpaid: Money.of(row.depositpaid), startdate: row.startdate };
}

export function stateOf(row: CustomerDealRow): DealState {
  return { amountpaid: Money.of(row.amountpaid), balance: Money.of(row.balance), overpaid: Money.of(row.overpaid), nextpaymentdate: row.nextpaymentdate, status: row.status };
}

export function dealViewOf(row: CustomerDealRow, state: DealState = stateOf(row)): CustomerDealView {
  return {
    customerdealid: row.id,
    dealid: row.deal_id,
    dealname: row.dealname,
    status: state.status,
    totalamount: Money.of(row.totalamount).toNumber(),
    monthly: Money.of(row.monthly).toNumber(),
    depositpaid: Money.of(row.depositpaid).toNumber(),
    amountpaid: state.amountpaid.toNumber(),
    balance: state.balance.toNumber(),
    overpaid: state.overpaid.toNumber(),
    bonusdays: row.bonusdays,
    startdate: row.startdate,
    nextpaymentdate: state.nextpaymentdate,
  };
}

/**
 * Every payment reaches a deal through here, inside the caller's transaction: the deal row is
 * locked, the ledger row appended, and the credit policy applied to the locked state, so two
 * payments on one deal at the same moment are applied one after the other and lose nothing.
 */
@Injectable()
export class CreditService {
  constructor(
    private readonly customerDeals: CustomerDealsRepository,
    private readonly ledger: LedgerService,
    private readonly customers: CustomersService,
  ) {}

  async credit(em: EntityManager, input: CreditInput): Promise<CreditResult> {
    const row = await this.customerDeals.lockByCustomerId(input.customerId, em);
    if (!row) throw customerNotFound(input.customerId);
    const { skipIfRecorded: _skip, ...fields } = input;
    const entry = { ...fields, customerDealId: row.id };
    const payment = input.skipIfRecorded ? await this.ledger.recordIfAbsent(em, entry) : await this.ledger.record(em, entry);
    const before = row.status;
    if (!payment) return { payment, before, deal: dealViewOf(row) };
    const after = applyPayment(termsOf(row), stateOf(row), input.amount, row.bonusdays, this.customers.today(), before === DealStatus.REPOSSESSED);
    await this.customerDeals.update(em, row.id, {
      status: after.status,
      amountpaid: after.amountpaid.toFixed(),
      balance: after.balance.toFixed(),
      overpaid: after.overpaid.toFixed(),
      bonusdays: row.bonusdays,
      nextpaymentdate: after.nextpaymentdate,
    });
    return { payment, before, deal: dealViewOf(row, after) };
  }
}
