import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { Clock } from '../../../common/time/clock.js';
import { Scheduled } from '../../../common/jobs/job-scheduler.js';
import { retryDelayAsked } from '../../../common/http/outbound.js';
import { OutboxRounds } from '../../../common/jobs/outbox-rounds.js';
import { AppConfig } from '../../../config/app-config.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import type { CustomerView } from '../../customers/application/customer-views.js';
import { DealStatus } from '../../contracts/domain/credit-policy.js';
import { GIVE_UP_AFTER_MS, isQuiet, MessageStatus, retryDelayMs } from '../domain/message.js';
import { MessageKind } from '../domain/templates.js';
import { Lease, MessageRow, MessagesRepository } from '../infrastructure/messages.repository.js';
import { SmsGateway } from '../infrastructure/sms-gateway.js';
import { MessageWording } from './message-wording.js';

const BATCH = 20;

/**
 * Sends the outbox through the gateway. Each round claims up to 20 due messages (fewer when the
 * send-rate cap is near) with FOR UPDATE SKIP LOCKED under a lease of its own (SMS_LEASE_SECONDS),
 * sends them, and records each outcome as it comes, so any number of instances can run it and none
 * sends a message another holds: right before each send the round renews its lease where it still
 * holds it, so a slow gateway never lets the lease run out under a send or a message waiting its
 * turn. A crash between the gateway's answer and the record sends that message again when its
 * lease ends (at least once, as for device commands). Reminders wait out SMS_QUIET_HOURS.
 */
@Injectable()
export class SmsDeliveryWorker implements OnModuleDestroy {
  private readonly logger = new Logger('Messages');
  private readonly hourOf: Intl.DateTimeFormat;
  private readonly rounds = new OutboxRounds(this.logger, 'SMS round', () => this.gateway.configured, () => this.round());

  constructor(
    private readonly messages: MessagesRepository,
    private readonly customers: CustomersService,
    private readonly gateway: SmsGateway,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly wording: MessageWording,
  ) {
    this.hourOf = new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: config.businessTimeZone });
  }

  onModuleDestroy(): Promise<void> {
    return this.rounds.stop();
  }

  /** Quiet hours now, in the business time zone. */
  quietNow(): boolean {
    return isQuiet(Number(this.hourOf.format(this.clock.now())), this.config.sms.quietHours);
  }

  /** Rounds until nothing is due (or the rate cap is reached). */
  @Scheduled('sms-delivery', (config) => ({ everyMs: config.outboxPollMs }))
  drain(): Promise<number> {
    return this.rounds.drain();
  }

  /** One round; returns how many messages were claimed. Never runs twice at once in one process. */
  runOnce(): Promise<number> {
    return this.rounds.once();
  }

  private async round(): Promise<number> {
    const lease: Lease = { token: randomUUID(), seconds: this.config.sms.leaseSeconds };
    const due = await this.messages.claimDue(BATCH, this.config.sms.ratePerMinute, !this.quietNow(), this.clock.now(), lease);
    // one customer's messages in the order they were written (a receipt before the lock notice it preceded), customers side by side
    const byCustomer = new Map<number, MessageRow[]>();
    for (const m of due) byCustomer.set(m.customer_id, [...(byCustomer.get(m.customer_id) ?? []), m]);
    await Promise.all([...byCustomer.values()].map((queue) => this.deliverInOrder(queue, lease)));
    return due.length;
  }

  /**
   * One customer's messages, one after the other. Before each send the lease is renewed on that
   * message and the customer's later ones: the send (a 10 s time-out, SMS_LEASE_SECONDS at least 15)
   * ends within it, so no other instance claims a message while it may be in flight, nor the later
   * ones out of turn. A message whose lease was lost (this process stalled past it and another
   * instance claimed it) is not sent; the customer's later ones are left too, to go after it. A
   * message to be tried again stops the queue as well: the later ones are let go, to follow it.
   */
  private async deliverInOrder(queue: MessageRow[], lease: Lease): Promise<void> {
    for (const [i, m] of queue.entries()) {
      const held = await this.messages.renewLease(queue.slice(i).map((later) => later.id), lease);
      if (!held.includes(m.id)) {
        this.logger.warn(`message ${m.id} (${m.kind}) not sent by this instance: its lease ended and another instance holds it`);
        return;
      }
      // to be tried again: the customer's later messages wait for it (markRetry let them go)
      if (!(await this.deliver(m, lease.token))) return;
    }
  }

  /** Sends one message and records the outcome; false when it stays PENDING, to be tried again. */
  private async deliver(claimed: MessageRow, leaseToken: string): Promise<boolean> {
    // a receipt is worded in the customer's language before its first send, and keeps that text
    const wording = this.wording.wordingOf(claimed);
    if (wording) await this.messages.word(claimed.id, wording);
    const m = this.wording.worded(claimed);
    let customer: CustomerView;
    try {
      customer = await this.customers.get(m.customer_id);
    } catch (error) {
      if (error instanceof DomainError && error.kind === ErrorKind.NOT_FOUND) return this.settled(this.messages.markClosed(m.id, leaseToken, MessageStatus.FAILED, null, 'customer not found'));
      throw error;
    }
    if (m.kind === MessageKind.REMINDER) {
      const stale = customer.deal.status !== DealStatus.UNLOCKED || customer.deal.nextpaymentdate !== m.due_date;
      if (stale) return this.settled(this.messages.markClosed(m.id, leaseToken, MessageStatus.CANCELLED, null, `no longer due: the deal is ${customer.deal.status}, paid up to ${customer.deal.nextpaymentdate}`));
      if ((await this.messages.preferences(m.customer_id))?.sms_opt_out) return this.settled(this.messages.markClosed(m.id, leaseToken, MessageStatus.CANCELLED, null, 'the customer opted out of reminders'));
    }
    if (Date.now() - new Date(m.created_at).getTime() > GIVE_UP_AFTER_MS) {
      return this.settled(this.messages.markClosed(m.id, leaseToken, MessageStatus.FAILED, customer.telephone, `not sent within 48 hours: ${m.last_error ?? 'no answer'}`));
    }
    const outcome = await this.gateway.send({ to: customer.telephone, text: m.text! });
    if (outcome.kind === 'SENT') return this.settled(this.messages.markSent(m.id, customer.telephone, outcome.messageId, outcome.cost));
    if (outcome.kind === 'REJECTED') {
      this.logger.warn(`message ${m.id} (${m.kind}) rejected by the gateway: ${outcome.reason}`);
      return this.settled(this.messages.markClosed(m.id, leaseToken, MessageStatus.FAILED, customer.telephone, outcome.reason));
    }
    const delay = retryDelayAsked(retryDelayMs(m.attempts), outcome.retryAfterMs);
    this.logger.warn(`message ${m.id} (${m.kind}) not sent, attempt ${m.attempts}: ${outcome.reason}; retry in ${delay} ms`);
    await this.messages.markRetry(m.id, leaseToken, customer.telephone, outcome.reason, delay);
    return false;
  }

  /** A final outcome recorded: the customer's next message may follow. */
  private async settled(record: Promise<void>): Promise<true> {
    await record;
    return true;
  }
}
