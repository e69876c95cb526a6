import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { checkDateRange } from '../../../common/time/date-range.js';
import { PaymentType } from '../../accounts/infrastructure/payment.entity.js';
import { DealStateService, type LockedDeal } from '../../customers/application/deal-state.service.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import {
  CallbackOutcome,
  checkRepeat,
  NotificationStatus,
  ProviderTransaction,
  ReconStatus,
  transactionAlreadyApplied,
  transactionNotFound,
} from '../domain/mobile-money.js';
import { MobileMoneyProvider } from '../infrastructure/mobile-money-provider.js';
import { MobileMoneyRepository, NotificationRow } from '../infrastructure/mobile-money.repository.js';

export interface Notification {
  id: string;
  amount: number;
  tag: string;
}

export interface CallbackAnswer {
  message: string;
  status: CallbackOutcome;
  customerid?: number;
}

export interface UnmatchedView {
  transactionid: string;
  amount: number;
  tag: string;
  source: string;
  receivedat: string;
}

export interface LookupAnswer {
  checked: number;
  applied: number;
  duplicates: number;
  unmatched: number;
}

const NARRATION = 'Mobile money';

@Injectable()
export class MobileMoneyService {
  private readonly logger = new Logger('MobileMoney');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly notifications: MobileMoneyRepository,
    private readonly credit: DealStateService,
    private readonly customers: CustomersService,
    private readonly provider: MobileMoneyProvider,
  ) {}

  /**
   * Stores a notification exactly once and credits the customer whose PAYG code is its tag, in one
   * transaction. Copies of one notification, however many and from however many instances, find
   * the first one through the unique key and change nothing.
   */
  async receive(n: Notification, source: 'CALLBACK' | 'LOOKUP' | 'RECON' = 'CALLBACK'): Promise<CallbackAnswer> {
    const amount = Money.of(n.amount);
    return this.dataSource.transaction(async (em) => {
      // one statement: the notification stored once and, when its tag is a customer's, that deal locked
      const insert = this.notifications.insertOnceStatement({ id: n.id, amount: amount.toFixed(), tag: n.tag, source });
      const stored = await this.credit.insertThenLock(em, insert.name, insert.insert, insert.values);
      if (!stored) {
        const existing = (await this.notifications.find(n.id, em))!;
        checkRepeat(n.id, Money.of(existing.amount), amount);
        return { message: `Transaction ${n.id} was already received; nothing changed.`, status: CallbackOutcome.DUPLICATE, ...(existing.customer_id ? { customerid: existing.customer_id } : {}) };
      }
      if (stored.customerId === null) {
        const why = n.tag ? `No customer has PAYG code ${n.tag}` : 'The payer gave no PAYG code';
        return { message: `${why}; the payment is kept unmatched.`, status: CallbackOutcome.UNMATCHED };
      }
      const result = await this.creditNotification(em, stored.customerId, n.id, amount, null, stored.deal ?? undefined);
      if (!result) {
        return { message: `Transaction ${n.id} is already in the ledger; nothing changed.`, status: CallbackOutcome.DUPLICATE, customerid: stored.customerId };
      }
      return { message: 'Payment applied.', status: CallbackOutcome.APPLIED, customerid: stored.customerId };
    });
  }

  private async creditNotification(em: EntityManager, customerId: number, id: string, amount: Money, by: number | null, locked?: LockedDeal) {
    const result = await this.credit.credit(em, {
      customerId,
      amount,
      reference: id,
      narration: NARRATION,
      type: PaymentType.MOBILE_MONEY,
      createdBy: by,
      skipIfRecorded: true,
    }, locked);
    return result.payment ? result : null;
  }

  async unmatched(page: number, limit: number): Promise<Page<UnmatchedView>> {
    const { rows, total } = await this.notifications.listUnmatched(page, limit);
    return { items: rows.map(unmatchedView), total, page, limit };
  }

  /** An operator decides whose an unmatched payment is. */
  async assign(transactionId: string, customerId: number, by: number) {
    return this.dataSource.transaction(async (em) => {
      const row = await this.notifications.lock(transactionId, em);
      if (!row) throw transactionNotFound(transactionId);
      if (row.status === NotificationStatus.APPLIED) throw transactionAlreadyApplied(transactionId);
      await this.customers.assertExists(customerId, em);
      const result = await this.credit.credit(em, {
        customerId,
        amount: Money.of(row.amount),
        reference: row.id,
        narration: `${NARRATION} (assigned)`,
        type: PaymentType.MOBILE_MONEY,
        createdBy: by,
      });
      await this.notifications.markApplied(em, row.id, customerId, by);
      return { message: 'Payment applied.', transactionid: row.id, customerid: customerId, payment: result.payment!, deal: result.deal };
    });
  }

  /**
   * Applies stored unmatched notifications whose tag now belongs to a customer (after a PAYG code
   * is set, or on every look-up). Runs inside the caller's transaction when one is given.
   */
  async applyMatchable(em?: EntityManager, tag?: string): Promise<number> {
    const run = async (tx: EntityManager) => {
      let applied = 0;
      for (const row of await this.notifications.lockMatchable(tx, 500, tag)) {
        await this.creditNotification(tx, row.match_id, row.id, Money.of(row.amount), null);
        await this.notifications.markApplied(tx, row.id, row.match_id, null);
        applied++;
      }
      return applied;
    };
    return em ? run(em) : this.dataSource.transaction(run);
  }

  /**
   * Asks the provider for a date range and applies every successful transaction not yet recorded.
   * The whole list is fetched before anything is applied: a provider failure applies nothing.
   */
  async lookup(startdate: string, enddate: string): Promise<LookupAnswer> {
    checkDateRange(startdate, enddate);
    const transactions = await this.provider.listTransactions(startdate, enddate);
    const answer: LookupAnswer = { checked: transactions.length, applied: 0, duplicates: 0, unmatched: 0 };
    for (const t of transactions) {
      if (t.status !== 'SUCCESS' || !isStorable(t)) continue;
      try {
        const outcome = await this.receive({ id: t.id, amount: t.amount, tag: t.tag }, 'LOOKUP');
        if (outcome.status === CallbackOutcome.APPLIED) answer.applied++;
        else if (outcome.status === CallbackOutcome.DUPLICATE) answer.duplicates++;
        else answer.unmatched++;
      } catch (error) {
        // One bad transaction (say, an amount that differs from what a callback told us) must not stop the rest.
        this.logger.warn(`look-up: transaction ${t.id} not applied: ${(error as Error).message}`);
      }
    }
    answer.applied += await this.applyMatchable();
    return answer;
  }

  /** The scheduled look-up: the last two days, because some providers send a callback once and never retry. */
  async lookupRecent(today: string): Promise<LookupAnswer> {
    return this.lookup(addDays(today, -2), today);
  }

  /** Settles one transaction: what this service knows first, then the provider. */
  async recon(reference: string): Promise<{ reference: string; status: ReconStatus; message: string }> {
    const local = await this.notifications.find(reference);
    if (local?.status === NotificationStatus.APPLIED) return { reference, status: ReconStatus.ALREADY_APPLIED, message: 'Already credited.' };
    if (local) {
      const applied = await this.applyMatchable(undefined, local.tag);
      return applied > 0
        ? { reference, status: ReconStatus.APPLIED, message: 'Matched to a customer and credited.' }
        : { reference, status: ReconStatus.UNMATCHED, message: local.tag ? `No customer has PAYG code ${local.tag} yet.` : 'The payer gave no PAYG code: assign it to a customer.' };
    }
    if (await this.customers.paymentReferenceUsed(reference)) return { reference, status: ReconStatus.ALREADY_APPLIED, message: 'A payment with this reference is already in the ledger.' };
    const remote = await this.provider.getTransaction(reference);
    if (!remote) return { reference, status: ReconStatus.NOT_FOUND, message: 'The provider does not know this transaction.' };
    if (remote.status !== 'SUCCESS' || !isStorable(remote)) return { reference, status: ReconStatus.FAILED, message: `The provider reports it ${remote.status}: nothing to credit.` };
    const outcome = await this.receive({ id: remote.id, amount: remote.amount, tag: remote.tag }, 'RECON');
    const status = outcome.status === CallbackOutcome.APPLIED ? ReconStatus.APPLIED : outcome.status === CallbackOutcome.UNMATCHED ? ReconStatus.UNMATCHED : ReconStatus.ALREADY_APPLIED;
    return { reference, status, message: outcome.message };
  }
}

/** A provider transaction this service can store: a positive amount in cents, within bounds (an empty tag is kept as unmatched). */
function isStorable(t: ProviderTransaction): boolean {
  try {
    const amount = Money.of(t.amount);
    return amount.isPositive() && amount.lte(Money.of(1_000_000_000));
  } catch {
    return false;
  }
}

function unmatchedView(row: NotificationRow): UnmatchedView {
  return { transactionid: row.id, amount: Money.of(row.amount).toNumber(), tag: row.tag, source: row.source, receivedat: new Date(row.received_at).toISOString() };
}
