import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { checkDateRange } from '../../../common/time/date-range.js';
import { isSerializationFailure } from '../../../common/database/postgres-errors.js';
import { isDatabaseUnavailable } from '../../../common/errors/http-error.js';
import { LedgerService } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { ContractsService, type LockedContract } from '../../contracts/application/contracts.service.js';
import { DealEvents } from '../../contracts/application/deal-events.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import {
  assessProviderAmount,
  CallbackOutcome,
  checkRepeat,
  matchableTag,
  NotificationStatus,
  ProviderTransaction,
  ReconStatus,
  transactionAlreadyApplied,
  transactionNotFound,
} from '../domain/mobile-money.js';
import { MobileMoneyProvider } from '../infrastructure/mobile-money-provider.js';
import { MobileMoneyRepository, NewNotification, NotificationRow } from '../infrastructure/mobile-money.repository.js';

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
  status: NotificationStatus;
  reason: string | null;
  receivedat: string;
}

export interface LookupAnswer {
  checked: number;
  applied: number;
  duplicates: number;
  unmatched: number;
}

type Source = 'CALLBACK' | 'LOOKUP' | 'RECON';

const NARRATION = 'Mobile money';

@Injectable()
export class MobileMoneyService implements OnModuleInit {
  private readonly logger = new Logger('MobileMoney');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly notifications: MobileMoneyRepository,
    private readonly contracts: ContractsService,
    private readonly customers: CustomersService,
    private readonly ledger: LedgerService,
    private readonly dealEvents: DealEvents,
    private readonly provider: MobileMoneyProvider,
  ) {}

  onModuleInit(): void {
    // a payment that arrived before its customer was registered is applied at registration
    this.dealEvents.subscribeOpened(async (em, opened, { imported }) => {
      // a callback storing a payment under one of these codes right now waits for this registration, or it waits for the
      // callback. An import's thousands of codes are not locked (the lock table is finite, and callbacks would wait for
      // the whole import): a payment it races is matched by the next matching round (matchWaiting) instead.
      if (!imported) await this.notifications.lockTags(em, opened.map((o) => o.payg));
      // one cheap look for waiting payments (nearly always none), then only the tags that have some
      const tags = await this.notifications.unmatchedTags(em, opened.map((o) => o.payg));
      for (const tag of tags) await (imported ? this.applyMatchable(em, tag) : this.applyMatchableLocked(em, tag));
    });
  }

  /**
   * Stores a notification exactly once and credits the customer whose PAYG code is its tag, in one
   * transaction. Copies of one notification, however many and from however many instances, find
   * the first one through the unique key and change nothing.
   *
   * A notification is never lost: when crediting fails for any reason but an unreachable database
   * (a bug, a constraint, a value out of range), that transaction rolls back and the notification is
   * stored on its own as HELD, with the reason, for an operator; the provider gets 200 either way.
   */
  async receive(n: Notification, source: Source = 'CALLBACK', raw: unknown = { transaction: n }): Promise<CallbackAnswer> {
    const amount = Money.of(n.amount);
    const notification: NewNotification = { id: n.id, amount: amount.toFixed(), tag: matchableTag(n.tag), source, raw };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.storeAndCredit(n.id, notification, amount);
      } catch (error) {
        // a deadlock or serialization failure is the database asking to try again, not a reason to hold the money
        if (!isSerializationFailure(error) || attempt >= 3) throw error;
      }
    }
  }

  private async storeAndCredit(id: string, notification: NewNotification, amount: Money): Promise<CallbackAnswer> {
    let crediting = false;
    try {
      return await this.dataSource.transaction(async (em) => {
        // one statement: the notification stored once and, when its tag is a customer's, that deal locked
        const stored = await this.notifications.storeNotificationAndLockDeal(em, notification);
        if (!stored) return this.repeated(id, amount, em);
        if (stored.customerId === null) {
          const matched = await this.matchAfterRegistrations(em, id, notification.tag);
          if (matched) return matched;
          const why = notification.tag ? `No customer has PAYG code ${notification.tag}` : 'The payer gave no PAYG code';
          return { message: `${why}; the payment is kept unmatched.`, status: CallbackOutcome.UNMATCHED };
        }
        crediting = true;
        await this.creditNotification(em, stored.customerId, id, amount, null, stored.deal ?? undefined);
        return { message: 'Payment applied.', status: CallbackOutcome.APPLIED, customerid: stored.customerId };
      });
    } catch (error) {
      if (!crediting || isDatabaseUnavailable(error) || isSerializationFailure(error)) throw error;
      return this.hold(notification, amount, error);
    }
  }

  /**
   * A notification just stored UNMATCHED: a registration (or lock-update) giving some customer its
   * tag may be committing now, unseen by the statement that stored it. Waits for any such
   * transaction (lockTags) and matches again; null when the tag is still nobody's.
   */
  private async matchAfterRegistrations(em: EntityManager, id: string, tag: string): Promise<CallbackAnswer | null> {
    if (!tag) return null;
    await this.notifications.lockTags(em, [tag]);
    // nearly always still nobody's: one look, and the waiting rows under the tag are left alone
    if (!(await this.customers.hasTag(em, tag))) return null;
    if ((await this.applyMatchableLocked(em, tag)) === 0) return null;
    const row = (await this.notifications.find(id, em))!;
    if (row.status !== NotificationStatus.APPLIED) return null;
    return { message: 'Payment applied.', status: CallbackOutcome.APPLIED, customerid: row.customer_id! };
  }

  /** The same id again: harmless with the same amount (the provider retried), a 409 with another. */
  private async repeated(id: string, amount: Money, em?: EntityManager): Promise<CallbackAnswer> {
    const existing = (await this.notifications.find(id, em))!;
    checkRepeat(id, Money.of(existing.amount), amount);
    return { message: `Transaction ${id} was already received; nothing changed.`, status: CallbackOutcome.DUPLICATE, ...(existing.customer_id ? { customerid: existing.customer_id } : {}) };
  }

  private async hold(n: NewNotification, amount: Money, error: unknown): Promise<CallbackAnswer> {
    const reason = `Could not be credited automatically: ${describe(error)}`;
    this.logger.error(`transaction ${n.id} held for an operator: ${describe(error)}`);
    if (!(await this.notifications.insertHeld(n, reason))) return this.repeated(n.id, amount);
    return { message: `Transaction ${n.id} could not be credited automatically; it is kept for an operator to assign.`, status: CallbackOutcome.UNMATCHED };
  }

  private creditNotification(em: EntityManager, customerId: number, id: string, amount: Money, by: number | null, locked?: LockedContract) {
    return this.contracts.credit(em, { customerId, amount, reference: id, narration: NARRATION, type: PaymentType.MOBILE_MONEY, createdBy: by }, locked);
  }

  async unmatched(page: number, limit: number): Promise<Page<UnmatchedView>> {
    const { rows, total } = await this.notifications.listUnmatched(page, limit);
    return { items: rows.map(unmatchedView), total, page, limit };
  }

  /** An operator decides whose a waiting (unmatched or held) payment is. */
  async assign(transactionId: string, customerId: number, by: number) {
    return this.dataSource.transaction(async (em) => {
      const row = await this.notifications.lock(transactionId, em);
      if (!row) throw transactionNotFound(transactionId);
      if (row.status === NotificationStatus.APPLIED) throw transactionAlreadyApplied(transactionId);
      await this.customers.assertExists(customerId, em);
      const result = await this.contracts.credit(em, {
        customerId,
        amount: Money.of(row.amount),
        reference: row.id,
        narration: `${NARRATION} (assigned)`,
        type: PaymentType.MOBILE_MONEY,
        createdBy: by,
      });
      await this.notifications.markApplied(em, row.id, customerId, by);
      return { message: 'Payment applied.', transactionid: row.id, customerid: customerId, payment: result.payment, deal: result.deal };
    });
  }

  /**
   * Applies stored unmatched notifications whose tag now belongs to a customer (at registration,
   * after lock-update gives a customer that code, on every look-up and reconciliation). Runs inside
   * the caller's transaction when one is given; each one under a savepoint, so one that cannot be
   * credited is HELD for an operator and the others still go in.
   */
  async applyMatchable(em?: EntityManager, tag?: string): Promise<number> {
    const run = async (tx: EntityManager) => {
      if (tag !== undefined) await this.notifications.lockTags(tx, [tag.trim()]);
      return this.applyMatchableLocked(tx, tag);
    };
    return em ? run(em) : this.dataSource.transaction(run);
  }

  /** applyMatchable for a caller that holds the tag's lock already (lockTags). */
  private async applyMatchableLocked(tx: EntityManager, tag?: string): Promise<number> {
    let applied = 0;
    for (const row of await this.notifications.lockMatchable(tx, 500, tag?.trim())) {
      if (await this.applyWaiting(tx, row.id, row.match_id, Money.of(row.amount))) applied++;
    }
    return applied;
  }

  private async applyWaiting(em: EntityManager, id: string, customerId: number, amount: Money): Promise<boolean> {
    await em.query('SAVEPOINT apply_waiting');
    try {
      await this.creditNotification(em, customerId, id, amount, null);
      await this.notifications.markApplied(em, id, customerId, null);
      await em.query('RELEASE SAVEPOINT apply_waiting');
      return true;
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      await em.query('ROLLBACK TO SAVEPOINT apply_waiting');
      this.logger.error(`transaction ${id} held for an operator: ${describe(error)}`);
      await this.notifications.markHeld(em, id, `Could not be credited to customer ${customerId} automatically: ${describe(error)}`);
      return false;
    }
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
      if (t.status !== 'SUCCESS') continue;
      try {
        const amount = assessProviderAmount(t.amount);
        if ('refuse' in amount) {
          this.logger.warn(`look-up: transaction ${t.id} not stored: ${amount.refuse}`);
          continue;
        }
        if ('hold' in amount) {
          if (await this.holdForOperator(t, 'LOOKUP', amount)) answer.unmatched++;
          else answer.duplicates++;
          continue;
        }
        const outcome = await this.receive({ id: t.id, amount: t.amount, tag: t.tag }, 'LOOKUP', t);
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

  /**
   * Money the provider says it received must not vanish because the service may not credit it by
   * itself: stored HELD for an operator. false when the id is stored already.
   */
  private holdForOperator(t: ProviderTransaction, source: Source, amount: { hold: Money; reason: string }): Promise<boolean> {
    return this.notifications.insertHeld({ id: t.id, amount: amount.hold.toFixed(), tag: matchableTag(t.tag), source, raw: t }, amount.reason);
  }

  /** What reconciliation answers for a notification this service has stored: matched again if it waits unmatched. */
  private async settleStored(reference: string, row: NotificationRow): Promise<{ reference: string; status: ReconStatus; message: string }> {
    if (row.status === NotificationStatus.APPLIED) return { reference, status: ReconStatus.ALREADY_APPLIED, message: 'Already credited.' };
    if (row.status === NotificationStatus.HELD) return { reference, status: ReconStatus.UNMATCHED, message: `Kept for an operator to assign: ${(row.reason ?? 'it could not be credited automatically').replace(/\.?$/, '.')}` };
    const applied = await this.applyMatchable(undefined, row.tag);
    return applied > 0
      ? { reference, status: ReconStatus.APPLIED, message: 'Matched to a customer and credited.' }
      : { reference, status: ReconStatus.UNMATCHED, message: row.tag ? `No customer has PAYG code ${row.tag} yet.` : 'The payer gave no PAYG code: assign it to a customer.' };
  }

  /** Settles one transaction: what this service knows first, then the provider. */
  async recon(reference: string): Promise<{ reference: string; status: ReconStatus; message: string }> {
    const local = await this.notifications.find(reference);
    if (local) return this.settleStored(reference, local);
    // a provider's transaction id is only ever a MOBILE_MONEY reference: an operator's receipt with the same text is another payment
    if (await this.ledger.referenceUsed(PaymentType.MOBILE_MONEY, reference)) {
      return { reference, status: ReconStatus.ALREADY_APPLIED, message: 'A mobile-money payment with this transaction id is already in the ledger.' };
    }
    const remote = await this.provider.getTransaction(reference);
    if (!remote) return { reference, status: ReconStatus.NOT_FOUND, message: 'The provider does not know this transaction.' };
    if (remote.status !== 'SUCCESS') return { reference, status: ReconStatus.FAILED, message: `The provider reports it ${remote.status}: nothing to credit.` };
    const amount = assessProviderAmount(remote.amount);
    if ('refuse' in amount) return { reference, status: ReconStatus.FAILED, message: `The provider reports it SUCCESS, but its ${amount.refuse}: nothing to credit.` };
    if ('hold' in amount) {
      if (await this.holdForOperator(remote, 'RECON', amount)) return { reference, status: ReconStatus.UNMATCHED, message: `Kept for an operator to assign: ${amount.reason}` };
      // stored meanwhile (a callback, a look-up): answered from what is stored, never by asking the provider again
      return this.settleStored(reference, (await this.notifications.find(remote.id))!);
    }
    const outcome = await this.receive({ id: remote.id, amount: remote.amount, tag: remote.tag }, 'RECON', remote);
    const status = outcome.status === CallbackOutcome.APPLIED ? ReconStatus.APPLIED : outcome.status === CallbackOutcome.UNMATCHED ? ReconStatus.UNMATCHED : ReconStatus.ALREADY_APPLIED;
    return { reference, status, message: outcome.message };
  }
}

/** An error as one short line for the operator's queue and the log (no stack, no SQL parameters). */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

function unmatchedView(row: NotificationRow): UnmatchedView {
  return {
    transactionid: row.id,
    amount: Money.of(row.amount).toNumber(),
    tag: row.tag,
    source: row.source,
    status: row.status,
    reason: row.reason,
    receivedat: new Date(row.received_at).toISOString(),
  };
}
