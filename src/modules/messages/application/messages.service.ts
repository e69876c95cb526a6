import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { addDays, businessDay, daysBetween } from '../../../common/time/business-date.js';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import type { CustomerView } from '../../customers/application/customer-views.js';
import { ContractsService } from '../../contracts/application/contracts.service.js';
import { DealChange, DealEvents, DealOpened } from '../../contracts/application/deal-events.js';
import { amountInArrears, DealStatus } from '../../contracts/domain/credit-policy.js';
import { eventKey, MessageStatus, reminderOffsetFor, statusOfReport } from '../domain/message.js';
import { smsSize } from '../domain/sms-encoding.js';
import { Language, MessageKind, MessageTemplates, RenderedMessage } from '../domain/templates.js';
import { MessageRow, MessagesRepository, PreferencesRow } from '../infrastructure/messages.repository.js';
import { MessageWording } from './message-wording.js';

/**
 * Operator messages one customer may be sent in 24 hours. Every message waits its turn in one queue
 * under SMS_RATE_PER_MINUTE: without a cap, one operator (or a script on a stolen token) could send a
 * customer thousands of texts at the business's cost, with every customer's receipts and lock notices
 * queued behind them.
 */
export const OPERATOR_MESSAGES_PER_DAY = 20;

export interface MessageView {
  messageid: number;
  customerid: number;
  kind: MessageKind;
  status: MessageStatus;
  language: Language;
  text: string;
  encoding: string;
  segments: number;
  telephone: string | null;
  attempts: number;
  lasterror: string | null;
  failurereason: string | null;
  gatewaymessageid: string | null;
  cost: string | null;
  createdat: string;
  sentat: string | null;
  deliveredat: string | null;
}

export interface PreferencesView {
  customerid: number;
  language: Language;
  smsoptout: boolean;
}

export interface DeliveryReport {
  id: string;
  status: string;
  failureReason?: string;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A worded row (MessageWording.worded): language, text, encoding and segments are set. */
export function messageView(row: MessageRow): MessageView {
  return {
    messageid: Number(row.id),
    customerid: row.customer_id,
    kind: row.kind,
    status: row.status,
    language: row.language!,
    text: row.text!,
    encoding: row.encoding!,
    segments: row.segments!,
    telephone: row.telephone,
    attempts: row.attempts,
    lasterror: row.last_error,
    failurereason: row.failure_reason,
    gatewaymessageid: row.gateway_message_id,
    cost: row.cost,
    createdat: iso(row.created_at)!,
    sentat: iso(row.sent_at),
    deliveredat: iso(row.delivered_at),
  };
}

const preferencesView = (row: PreferencesRow): PreferencesView => ({ customerid: row.customer_id, language: row.language, smsoptout: row.sms_opt_out });

/** Reminder chunks: each in a transaction of its own, so a long list does not hold one open. */
const REMINDER_CHUNK = 200;

/**
 * Customer messages (DESIGN part 11). Each event writes its message into the outbox inside the
 * event's own transaction (DealEvents), keyed by the event, so a rolled-back payment sends nothing
 * and a repeated one nothing more; SmsDeliveryWorker sends them. A payment's receipt is the one
 * exception to "keyed and worded here": it is a row of figures inside the payment's own statement
 * (DealEvents.writeWithPayment, docs/performance.md), once per ledger row, worded when first sent.
 */
@Injectable()
export class MessagesService implements OnModuleInit {
  readonly templates: MessageTemplates;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly messages: MessagesRepository,
    private readonly customers: CustomersService,
    private readonly contracts: ContractsService,
    private readonly dealEvents: DealEvents,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly wording: MessageWording,
  ) {
    this.templates = wording.templates;
  }

  onModuleInit(): void {
    this.dealEvents.writeWithPayment(this.messages.receiptRow);
    this.dealEvents.subscribeOpened(async (em, opened, { notify }) => {
      // an imported repossessed customer has nothing to be welcomed to
      if (notify) await this.onRegistered(em, opened.filter((o) => !o.repossessed));
    });
    this.dealEvents.subscribe((em, change) => this.onDealChanged(em, change));
  }

  private write(em: EntityManager, kind: MessageKind, key: string, customerId: number, customerDealId: number | null, renderings: RenderedMessage[], dueDate: string | null = null) {
    return this.messages.insertEvent(em, {
      customerId,
      customerDealId,
      kind,
      eventKey: key,
      dueDate,
      defaultLanguage: this.config.sms.defaultLanguage,
      renderings,
      unlessOptedOut: kind === MessageKind.REMINDER,
    });
  }

  /** A welcome for each customer registered, worded from the facts the event carries: nothing is read. */
  private async onRegistered(em: EntityManager, opened: DealOpened[]): Promise<void> {
    for (const { customerId, customerDealId, payg, deposit, accountnumber } of opened) {
      const facts = { payg, account: accountnumber, deposit: deposit.toFixed() };
      await this.write(em, MessageKind.REGISTERED, eventKey.registered(customerId), customerId, customerDealId, this.templates.renderAll(MessageKind.REGISTERED, facts));
    }
  }

  private async onDealChanged(em: EntityManager, change: DealChange): Promise<void> {
    // a payment's receipt is written by the payment's own statement (MessagesRepository's RECEIPT_ROW)
    const { before, after, customerId, customerDealId } = change;
    // a payment the customer is not told of (an import without notify=true) tells them nothing it changed either
    if (change.payment && !change.payment.notify) return;
    if (after.status === DealStatus.PAID_OFF && before.status !== DealStatus.PAID_OFF) {
      const c = await this.customers.get(customerId, em);
      const facts = { total: String(c.deal.totalamount) };
      await this.write(em, MessageKind.PAID_OFF, eventKey.paidOff(customerDealId), customerId, customerDealId, this.templates.renderAll(MessageKind.PAID_OFF, facts));
    }
    if (after.status === DealStatus.LOCKED && before.status === DealStatus.UNLOCKED) {
      const c = await this.customers.get(customerId, em);
      const facts = { date: after.nextpaymentdate, amount: this.toUnlock(c, change.today).toFixed(), payg: c.payg };
      await this.write(em, MessageKind.LOCKED, eventKey.locked(customerDealId, after.nextpaymentdate), customerId, customerDealId, this.templates.renderAll(MessageKind.LOCKED, facts));
    }
  }

  /** What unlocks the device today: a collection call's arrears (DESIGN part 8). */
  private toUnlock(c: CustomerView, today: string): Money {
    const d = c.deal;
    const terms = { totalamount: Money.of(String(d.totalamount)), monthly: Money.of(String(d.monthly)), depositpaid: Money.of(String(d.depositpaid)), startdate: d.startdate };
    return amountInArrears(terms, Money.of(String(d.amountpaid)), d.bonusdays, today);
  }

  today(): string {
    return businessDay(this.clock.now(), this.config.businessTimeZone);
  }

  /**
   * Writes the reminders due today: for each unlocked deal whose paid-up date is at most the
   * largest SMS_REMINDER_DAYS away, the reminder of the offset its distance falls under (see
   * reminderOffsetFor). Keyed by deal, due date and offset: running it again, on any number of
   * instances, or after a restart writes nothing twice. Opted-out customers get none.
   */
  async queueReminders(): Promise<number> {
    const today = this.today();
    const offsets = this.config.sms.reminderDays;
    const deals = await this.contracts.unlockedDealsDue(today, addDays(today, offsets[0]));
    let queued = 0;
    for (let i = 0; i < deals.length; i += REMINDER_CHUNK) {
      await this.dataSource.transaction(async (em) => {
        for (const d of deals.slice(i, i + REMINDER_CHUNK)) {
          const daysLeft = daysBetween(today, d.nextpaymentdate);
          const offset = reminderOffsetFor(daysLeft, offsets);
          if (offset === null) continue;
          const monthly = Money.of(d.monthly);
          const balance = Money.of(d.balance);
          const facts = { date: d.nextpaymentdate, amount: (monthly.gt(balance) ? balance : monthly).toFixed(), payg: d.payg };
          const key = eventKey.reminder(d.customerdealid, d.nextpaymentdate, offset);
          if (await this.write(em, MessageKind.REMINDER, key, d.customerid, d.customerdealid, this.templates.renderAll(MessageKind.REMINDER, facts), d.nextpaymentdate)) queued++;
        }
      });
    }
    return queued;
  }

  async list(filter: { customerId?: number; status?: MessageStatus }, page: number, limit: number): Promise<Page<MessageView>> {
    if (filter.customerId !== undefined) await this.customers.assertExists(filter.customerId);
    const [rows, total] = await this.messages.list(filter, page, limit);
    return { items: rows.map((row) => messageView(this.wording.worded(row))), total, page, limit };
  }

  /**
   * An operator's own message: sent whatever the hour and the opt-out (they concern reminders only), at
   * most OPERATOR_MESSAGES_PER_DAY to one customer in 24 hours (429 beyond).
   */
  async sendOperatorMessage(customerId: number, text: string, by: number): Promise<MessageView> {
    await this.customers.assertExists(customerId);
    const language = (await this.messages.preferences(customerId))?.language ?? this.config.sms.defaultLanguage;
    const size = smsSize(text);
    const row = await this.messages.insertOperatorMessage({ customerId, language, text, encoding: size.encoding, segments: size.segments, createdBy: by }, OPERATOR_MESSAGES_PER_DAY);
    if (!row) {
      throw new DomainError(ErrorKind.RATE_LIMITED, 'OPERATOR_MESSAGES_CAPPED', `Customer ${customerId} was sent ${OPERATOR_MESSAGES_PER_DAY} operator messages in the last 24 hours: no more today.`);
    }
    return messageView(row);
  }

  /** A customer's preferences, or what applies when none were set (the default language, no opt-out). */
  async preferencesOf(customerId: number): Promise<PreferencesView> {
    await this.customers.assertExists(customerId);
    const row = await this.messages.preferences(customerId);
    return row ? preferencesView(row) : { customerid: customerId, language: this.config.sms.defaultLanguage, smsoptout: false };
  }

  /**
   * What an import says of its new customers' messages, in the import's transaction: the language
   * (else SMS_DEFAULT_LANGUAGE) and the opt-out (else none) of each row that gives either.
   */
  async importPreferences(em: EntityManager, rows: Array<{ customerId: number; language: Language | null; optOut: boolean | null }>, by: number): Promise<void> {
    const given = rows.filter((r) => r.language !== null || r.optOut !== null);
    await this.messages.insertPreferences(em, given.map((r) => ({ customerId: r.customerId, language: r.language ?? this.config.sms.defaultLanguage, optOut: r.optOut ?? false })), by);
  }

  async setPreferences(customerId: number, language: Language, optOut: boolean, by: number): Promise<PreferencesView> {
    await this.customers.assertExists(customerId);
    return preferencesView(await this.messages.savePreferences(customerId, language, optOut, by));
  }

  /** A delivery report: DELIVERED or FAILED for a message the gateway took; anything else changes nothing. */
  async applyDeliveryReport(report: DeliveryReport): Promise<{ message: string }> {
    const final = statusOfReport(report.status);
    if (!final) return { message: `Delivery report noted: ${report.status} is not a final status.` };
    const reason = final === MessageStatus.FAILED ? (report.failureReason || report.status) : null;
    let outcome = await this.messages.applyReport(report.id, final, reason);
    // A report can overtake the record of its own send (the gateway answered, the worker has not written
    // the id yet): while a send is in flight, look again for up to 2 s before calling the id unknown. A
    // send recorded between the look for the id and the look for a send in flight is looked for once more.
    for (let i = 0; outcome === 'UNKNOWN' && i < 20; i++) {
      const inFlight = await this.messages.sendInFlight();
      if (inFlight) await new Promise((resolve) => setTimeout(resolve, 100));
      outcome = await this.messages.applyReport(report.id, final, reason);
      if (!inFlight) break;
    }
    if (outcome === 'UNKNOWN') return { message: 'No message has this id: nothing changed.' };
    return { message: outcome === 'APPLIED' ? `Message ${final.toLowerCase()}.` : 'The message has its final status already: nothing changed.' };
  }
}
