import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Money } from '../../../common/money/money.js';
import { DealState } from '../domain/credit-policy.js';

export interface DealChange {
  customerId: number;
  customerDealId: number;
  before: DealState;
  after: DealState;
  today: string;
  /** the payment that made the change, when one did; `notify` false: the customer is not told of it (an import without notify=true, DESIGN part 12) */
  payment?: { id: string; amount: Money; notify: boolean };
}

export type DealChangeListener = (em: EntityManager, change: DealChange) => Promise<void>;

/** A customer registered with a deal and a PAYG code (the deposit is in the ledger already). */
export interface DealOpened {
  customerId: number;
  customerDealId: number;
  payg: string;
  deposit: Money;
  accountnumber: string;
  /** opened repossessed (an import of a book that had repossessed it): nobody to welcome */
  repossessed?: boolean;
}

/**
 * `notify`: whether the customers are told (a registration always; an import only when asked, DESIGN part 12).
 * `imported`: the deals of an import's chunk (thousands at once), not one registration.
 */
export interface DealsOpenedOptions {
  notify: boolean;
  imported: boolean;
}
export type DealOpenedListener = (em: EntityManager, opened: DealOpened[], options: DealsOpenedOptions) => Promise<void>;

/**
 * A row another module writes inside the statement that records a payment (ContractsRepository's
 * recordPayment: ledger row, deal update), so that what every payment causes there costs no round
 * trip of its own. `sql` is one data-modifying statement (an `INSERT … SELECT … FROM paid`) that reads
 * only the CTE `paid`, one row per payment recorded, none when the payment's reference was used already:
 *
 * | column | |
 * | --- | --- |
 * | `payment_id` | bigint, the ledger row's id |
 * | `customer_id`, `customer_deal_id` | integer |
 * | `amount` | numeric(14,2), the payment |
 * | `type` | the ledger type (PaymentType) |
 * | `status`, `balance`, `nextpaymentdate` | the deal as the payment leaves it |
 * | `notify` | boolean, whether the customer is told of the payment (false: an import without notify=true) |
 *
 * The module that owns the table owns the text; contracts composes it as it composes the ledger's
 * append (accounts' ledger.sql.ts). `name` (lower-case letters and _) names its CTE.
 */
export interface PaymentRowWriter {
  name: string;
  sql: string;
}

/**
 * Lets modules above customers react to a deal's change inside the same transaction (collections
 * resolves a call once the deal is up to date) without customers depending on them.
 */
@Injectable()
export class DealEvents {
  private readonly listeners: DealChangeListener[] = [];
  private readonly openedListeners: DealOpenedListener[] = [];
  private readonly paymentWriters: PaymentRowWriter[] = [];
  private paymentWritersSealed = false;

  subscribe(listener: DealChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * Payments applies what was paid under the new PAYG codes before the customers existed; messages
   * welcomes them. Listeners get the deals of one registration, or of an import's chunk, at once.
   */
  subscribeOpened(listener: DealOpenedListener): void {
    this.openedListeners.push(listener);
  }

  /**
   * Adds a row to every payment's own statement (see PaymentRowWriter), in the payment's
   * transaction: for modules that must write something per payment without a round trip. Only while
   * the application starts (onModuleInit): the statement is prepared once, at the first payment.
   */
  writeWithPayment(writer: PaymentRowWriter): void {
    if (this.paymentWritersSealed) throw new Error(`payment row writer ${writer.name} added after the first payment`);
    if (!/^[a-z_]+$/.test(writer.name) || this.paymentWriters.some((w) => w.name === writer.name)) throw new Error(`payment row writer name ${writer.name} is not a new lower-case identifier`);
    this.paymentWriters.push(writer);
  }

  /** For contracts: the writers to compose into the payment statement, final from the first call. */
  paymentRowWriters(): readonly PaymentRowWriter[] {
    this.paymentWritersSealed = true;
    return this.paymentWriters;
  }

  async dealOpened(em: EntityManager, opened: DealOpened): Promise<void> {
    await this.dealsOpened(em, [opened], { notify: true, imported: false });
  }

  async dealsOpened(em: EntityManager, opened: DealOpened[], options: DealsOpenedOptions): Promise<void> {
    for (const listener of this.openedListeners) await listener(em, opened, options);
  }

  async dealChanged(em: EntityManager, change: DealChange): Promise<void> {
    for (const listener of this.listeners) await listener(em, change);
  }
}
