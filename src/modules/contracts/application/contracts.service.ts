import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { Money } from '../../../common/money/money.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { LedgerService, PaymentView, paymentView, referenceUsed } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { CommandView, DeviceCommandsService } from '../../device-commands/application/device-commands.service.js';
import { commandForState, commandForTransition, DeviceAction, DeviceRef, waitsForUnlockEnd } from '../../device-commands/domain/device-command.js';
import type { ContractRow } from '../contract.sql.js';
import {
  alreadyRepossessed,
  bonusLimit,
  contractNotFound,
  deviceMovedOn,
  nothingToSync,
  paidOffNoBonus,
  paidOffNoUnlock,
  repossessed,
  tempUnlockLimit,
} from '../domain/contract-errors.js';
import { applyPayment, DealState, DealStatus, deriveDealState, stateFromAmountPaid } from '../domain/credit-policy.js';
import { ContractsRepository, DealStateUpdate, NewContract, UnlockedDealDue } from '../infrastructure/contracts.repository.js';
import { contractView, CustomerDealView, stateOf, termsOf } from './contract-view.js';
import { DealChange, DealEvents, DealOpened } from './deal-events.js';
import { cutText } from '../../../common/identifiers/characters.js';

/** The answer to bonus days granted (customers/bonus and device/bonus-days give the same). */
export interface BonusGrantedView {
  message: string;
  customerid: number;
  deal: CustomerDealView;
}

export interface CreditInput {
  customerId: number;
  amount: Money;
  reference: string;
  narration: string;
  type: PaymentType;
  createdBy: number | null;
  /** false: the customer is not told (no receipt, no paid-off message): an import without notify=true (DESIGN part 12). Default true. */
  notify?: boolean;
}

export interface CreditResult {
  payment: PaymentView;
  before: DealStatus;
  deal: CustomerDealView;
}

/** What registration hands over to open a customer's contract. */
export interface OpenContractInput {
  customerId: number;
  imei: string;
  payg: string;
  deal: { dealid: number; dealname: string; totalamount: Money; monthly: Money };
  deposit: Money;
  createdBy: number;
  /** the customer's account number, which they pay into: the welcome message quotes it */
  accountnumber: string;
}

/** A contract brought in by an import (DESIGN part 12): it keeps its start date and what was paid before. */
export interface MigratedContractInput extends OpenContractInput {
  startdate: string;
  /** what was paid before the import, the deposit included */
  amountpaid: Money;
  /** the reference of the OPENING ledger row */
  openingReference: string;
  serialnumber: string | null;
  /** bonus days the book had granted: recorded as one grant by the import */
  bonusdays: number;
  /** the book had repossessed it: it stays REPOSSESSED and its device is locked for good */
  repossessed: boolean;
}

/** A customer's deal row locked for the current transaction (LOCK_CONTRACT_OF), to hand to credit(). */
export type LockedContract = ContractRow;

function stateUpdate(after: DealState, bonusdays: number): DealStateUpdate {
  return { status: after.status, amountpaid: after.amountpaid.toFixed(), balance: after.balance.toFixed(), overpaid: after.overpaid.toFixed(), bonusdays, nextpaymentdate: after.nextpaymentdate };
}

function newContract(input: OpenContractInput, startdate: string, state: DealState, bonusdays = 0): NewContract {
  return {
    customerId: input.customerId,
    imei: input.imei,
    dealId: input.deal.dealid,
    dealname: input.deal.dealname,
    totalamount: input.deal.totalamount.toFixed(),
    monthly: input.deal.monthly.toFixed(),
    depositpaid: input.deposit.toFixed(),
    startdate,
    ...stateUpdate(state, bonusdays),
  };
}

function openedEvent(input: OpenContractInput, customerDealId: number): DealOpened {
  return { customerId: input.customerId, customerDealId, payg: input.payg, deposit: input.deposit, accountnumber: input.accountnumber };
}

function depositEntry(input: OpenContractInput, customerDealId: number) {
  return { customerId: input.customerId, customerDealId, amount: input.deposit, reference: `DEPOSIT-${input.customerId}`, narration: 'Deposit at registration', type: PaymentType.DEPOSIT, createdBy: input.createdBy };
}

function deviceOf(row: ContractRow): DeviceRef {
  return { customerId: row.customer_id, imei: row.imei, serialnumber: row.serialnumber, payg: row.payg };
}

/**
 * The contract (a customer's deal) and its state machine. Every change of a deal's money or state
 * goes through here, inside the caller's transaction: the deal row is locked, the change applied by
 * the credit policy, and the command that tells the device about it written to the outbox in the
 * same transaction; other modules react through DealEvents.
 */
@Injectable()
export class ContractsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contracts: ContractsRepository,
    private readonly ledger: LedgerService,
    private readonly commands: DeviceCommandsService,
    private readonly events: DealEvents,
    private readonly businessClock: BusinessClock,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The business day the temporary unlock running on the contract's device ends, or null when none runs. */
  private unlockEndDay(row: ContractRow): string | null {
    return row.unlockuntil && row.unlockuntil > this.clock.now() ? this.businessClock.dayOf(row.unlockuntil) : null;
  }

  private async lock(em: EntityManager, customerId: number): Promise<ContractRow> {
    const row = await this.contracts.lockByCustomerId(customerId, em);
    if (!row) throw contractNotFound(customerId);
    return row;
  }

  /**
   * Opens the contract of a customer being registered, in the registration's transaction: terms
   * copied from the deal, the deposit as the first ledger row, the device released at once when the
   * deposit pays the whole price (a cash sale), then payments waiting under the PAYG code applied.
   */
  async open(em: EntityManager, input: OpenContractInput): Promise<number> {
    const today = this.businessClock.today();
    const terms = { totalamount: input.deal.totalamount, monthly: input.deal.monthly, depositpaid: input.deposit, startdate: today };
    const state = deriveDealState(terms, [input.deposit], 0, today, false);
    // under the device's lock (insert takes it): a closed contract about to command the device waits, then sees this deal
    const customerDealId = await this.contracts.insert(em, newContract(input, today, state));
    await this.ledger.record(em, depositEntry(input, customerDealId));
    const device = { customerId: input.customerId, imei: input.imei, serialnumber: null, payg: input.payg };
    if (state.status === DealStatus.PAID_OFF) {
      // a deposit of the whole price is a cash sale: the device is released at once
      await this.commands.enqueue(em, { device, action: DeviceAction.RELEASE, nextpaymentdate: state.nextpaymentdate, reason: 'paid in full at registration', createdBy: input.createdBy });
    } else if (await this.contracts.olderDealOnDevice(em, input.imei, customerDealId)) {
      // a device financed again was last told its old deal's end (released, or locked for good): it hears the new deal's state
      await this.commands.enqueue(em, { device, action: commandForState(state.status), nextpaymentdate: state.nextpaymentdate, reason: 'financed again', createdBy: input.createdBy });
    }
    // payments that arrived under this PAYG code before the customer existed are applied now
    await this.events.dealOpened(em, openedEvent(input, customerDealId));
    return customerDealId;
  }

  /**
   * Opens the contracts of an import's customers (DESIGN part 12), many a statement, in the import's
   * transaction: each keeps its start date, the credit policy (the same function as open()) sets its
   * state as of today from the deposit and what was paid before, that is one OPENING ledger row after
   * the deposit, and the device is told the state the book implies (a SYNC, or a RELEASE when paid
   * off: a SYNC would arm a paid-off device's lock again). Five round trips for any number of rows.
   */
  async openMigrated(em: EntityManager, inputs: MigratedContractInput[], options: { notify: boolean }): Promise<void> {
    if (inputs.length === 0) return;
    const today = this.businessClock.today();
    const opened = inputs.map((input) => {
      const terms = { totalamount: input.deal.totalamount, monthly: input.deal.monthly, depositpaid: input.deposit, startdate: input.startdate };
      const opening = input.amountpaid.minus(input.deposit);
      return { input, opening, state: deriveDealState(terms, [input.deposit, opening], input.bonusdays, today, input.repossessed) };
    });
    const ids = await this.contracts.insertMany(
      em,
      opened.map(({ input, state }) => ({ ...newContract(input, input.startdate, state, input.bonusdays), repossessed: input.repossessed ? { reason: 'Repossessed before the import', by: input.createdBy } : null })),
    );
    // the grants the ledger verifier rebuilds bonusdays from, for what the book had granted (a grant is at most 365 days)
    await this.contracts.insertBonusGrants(
      em,
      opened.flatMap(({ input }, i) =>
        Array.from({ length: Math.ceil(input.bonusdays / 365) }, (_, k) => ({ customerDealId: ids[i], days: Math.min(365, input.bonusdays - k * 365), grantedBy: input.createdBy, route: 'import' })),
      ),
    );
    // per customer the deposit, then what was paid before: the ledger's order of the one-by-one registration
    await this.ledger.recordMany(
      em,
      opened.flatMap(({ input, opening }, i) => [
        depositEntry(input, ids[i]),
        ...(opening.isPositive()
          ? [{ customerId: input.customerId, customerDealId: ids[i], amount: opening, reference: input.openingReference, narration: 'Paid before the import', type: PaymentType.OPENING, createdBy: input.createdBy }]
          : []),
      ]),
    );
    await this.commands.enqueueMany(
      em,
      opened.map(({ input, state }) => ({
        device: { customerId: input.customerId, imei: input.imei, serialnumber: input.serialnumber, payg: input.payg },
        action: state.status === DealStatus.REPOSSESSED ? DeviceAction.PERMANENT_LOCK : state.status === DealStatus.PAID_OFF ? DeviceAction.RELEASE : DeviceAction.SYNC,
        nextpaymentdate: state.nextpaymentdate,
        reason: 'imported',
        createdBy: input.createdBy,
      })),
    );
    await this.events.dealsOpened(em, inputs.map((input, i) => ({ ...openedEvent(input, ids[i]), repossessed: input.repossessed })), { ...options, imported: true });
  }

  /** For messages: unlocked deals whose paid-up date lies in (after, until] (reminders). */
  unlockedDealsDue(after: string, until: string): Promise<UnlockedDealDue[]> {
    return this.contracts.unlockedDealsDue(after, until);
  }

  /** Writes the new state, tells the device what changed, and lets other modules react. */
  private async save(em: EntityManager, row: ContractRow, after: DealState, bonusdays: number, reason: string, by: number | null, forced?: DeviceAction): Promise<CustomerDealView> {
    await this.contracts.update(em, row.id, stateUpdate(after, bonusdays));
    return this.changed(em, row, after, bonusdays, reason, by, forced);
  }

  /**
   * After the new state is written: the device command it calls for (`forced`, or none), unless it
   * must wait for a running temporary unlock to end, and the other modules' reactions.
   */
  private async changed(em: EntityManager, row: ContractRow, after: DealState, bonusdays: number, reason: string, by: number | null, forced?: DeviceAction, payment?: DealChange['payment']): Promise<CustomerDealView> {
    const action = forced ?? commandForTransition(row, after);
    if (action && !waitsForUnlockEnd(action, after.nextpaymentdate, this.unlockEndDay(row))) {
      await this.commands.enqueue(em, { device: deviceOf(row), action, nextpaymentdate: after.nextpaymentdate, reason, createdBy: by });
    }
    await this.events.dealChanged(em, { customerId: row.customer_id, customerDealId: row.id, before: stateOf(row), after, today: this.businessClock.today(), payment });
    return contractView(row, after, bonusdays);
  }

  /**
   * Records a payment and applies the credit policy under the deal's row lock. The ledger row and
   * the new state go in with one statement; a reference its source already used is a 409. `locked`:
   * the deal already locked in this transaction (the callback locks it while storing the notification).
   */
  async credit(em: EntityManager, input: CreditInput, locked?: LockedContract): Promise<CreditResult> {
    const row = locked ?? (await this.lock(em, input.customerId));
    const after = applyPayment(termsOf(row), stateOf(row), input.amount, row.bonusdays, this.businessClock.today(), row.status === DealStatus.REPOSSESSED);
    const entry = { customerId: input.customerId, customerDealId: row.id, amount: input.amount.toFixed(), reference: input.reference, narration: input.narration, type: input.type, createdBy: input.createdBy };
    const notify = input.notify ?? true;
    const recorded = await this.contracts.recordPayment(em, entry, stateUpdate(after, row.bonusdays), this.events.paymentRowWriters(), notify);
    if (!recorded) throw referenceUsed(input.reference);
    // the command names the payment by its id: a reference may be up to 255 characters, the reason column too
    const deal = await this.changed(em, row, after, row.bonusdays, `payment #${recorded.id}`, input.createdBy, undefined, { id: String(recorded.id), amount: input.amount, notify });
    return { payment: paymentView(recorded), before: row.status, deal };
  }

  /** A payment in a transaction of its own. */
  creditNow(input: CreditInput): Promise<CreditResult> {
    return this.dataSource.transaction((em) => this.credit(em, input));
  }

  /** Bonus days extend the paid-up date, never touch the balance, and are recorded with who granted them. */
  async grantBonus(em: EntityManager, customerId: number, days: number, actor: AuthUser, route: string): Promise<CustomerDealView> {
    const row = await this.lock(em, customerId);
    if (row.status === DealStatus.REPOSSESSED) throw repossessed(customerId, 'no bonus days');
    // a SYNC with a paid-up date would arm the device's own lock again after its release
    if (row.status === DealStatus.PAID_OFF) throw paidOffNoBonus(customerId);
    if (row.bonusdays + days > this.config.bonusDaysMax) throw bonusLimit(customerId, row.bonusdays, this.config.bonusDaysMax);
    await this.contracts.insertBonusGrant(em, row.id, days, actor.id, route);
    const bonusdays = row.bonusdays + days;
    const after = stateFromAmountPaid(termsOf(row), Money.of(row.amountpaid), bonusdays, this.businessClock.today(), false);
    return this.save(em, row, after, bonusdays, `${days} bonus days`, actor.id, DeviceAction.SYNC);
  }

  /** Bonus days in a transaction of their own, with the answer customers/bonus and device/bonus-days give. */
  async grantBonusNow(customerId: number, days: number, actor: AuthUser, route: string): Promise<BonusGrantedView> {
    const deal = await this.dataSource.transaction((em) => this.grantBonus(em, customerId, days, actor, route));
    return { message: `${days} bonus days granted.`, customerid: customerId, deal };
  }

  /** Re-pushes the paid-up state (a paid-off deal's release); only meaningful while the paid-up date is ahead. */
  syncStatus(customerId: number, actor: AuthUser): Promise<CommandView> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.lock(em, customerId);
      if (row.status === DealStatus.REPOSSESSED) throw repossessed(customerId, 'the device stays locked for good, there is nothing to push');
      if (!(row.nextpaymentdate > this.businessClock.today())) throw nothingToSync(customerId, row.nextpaymentdate);
      await this.assertCommandsDevice(em, row);
      const action = row.status === DealStatus.PAID_OFF ? DeviceAction.RELEASE : DeviceAction.SYNC;
      return this.commands.enqueue(em, { device: deviceOf(row), action, nextpaymentdate: row.nextpaymentdate, reason: 'status re-push', createdBy: actor.id });
    });
  }

  /**
   * Unlocks the device for `hours`; the deal's status and balance stay as they are. A repossessed
   * device stays locked, a paid-off one is released already, and a deal gets at most
   * TEMP_UNLOCK_MAX_HOURS in any 30 days (hours granted count, also when a newer unlock cut one short),
   * so chained unlocks end.
   */
  tempUnlock(customerId: number, hours: number, actor: AuthUser): Promise<CommandView> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.lock(em, customerId);
      if (row.status === DealStatus.REPOSSESSED) throw repossessed(customerId, 'the device stays locked for good');
      if (row.status === DealStatus.PAID_OFF) throw paidOffNoUnlock(customerId);
      const now = this.clock.now();
      const granted = await this.commands.tempUnlockHoursSince(em, customerId, new Date(now.getTime() - 30 * 86_400_000));
      const max = this.config.tempUnlockMaxHours;
      if (granted + hours > max) throw tempUnlockLimit(customerId, granted, max);
      const unlockuntil = new Date(now.getTime() + hours * 3_600_000);
      const command = await this.commands.enqueueTempUnlock(em, {
        device: deviceOf(row),
        action: DeviceAction.TEMP_UNLOCK,
        nextpaymentdate: row.nextpaymentdate,
        unlockuntil,
        unlockHours: hours,
        reason: 'temporary unlock for investigation',
        createdBy: actor.id,
      });
      await this.contracts.setUnlockUntil(em, row.id, unlockuntil);
      return command;
    });
  }

  /**
   * A closed contract's device may have been financed again (DESIGN part 10 frees its IMEI): from
   * then on the device is the newest deal's, whatever that deal's state, and the old contract must
   * not release, lock or re-push it. A deal still being paid for holds its IMEI alone (unique), so
   * only a paid-off or repossessed one can have a newer deal on its device.
   */
  private async deviceMovedOnFrom(em: EntityManager, row: ContractRow): Promise<number | null> {
    if (row.status !== DealStatus.PAID_OFF && row.status !== DealStatus.REPOSSESSED) return null;
    // a registration of the device under way finishes first: its deal is seen, or it writes its command after ours
    await this.contracts.lockDevice(em, row.imei);
    return this.contracts.newerDealOnDevice(em, row.imei, row.id);
  }

  private async assertCommandsDevice(em: EntityManager, row: ContractRow): Promise<void> {
    const newer = await this.deviceMovedOnFrom(em, row);
    if (newer !== null) throw deviceMovedOn(row.customer_id, row.imei, newer);
  }

  /** Contract and deal repossessed (customers marks the customer on the deal event); the device locked for good. */
  repossess(customerId: number, reason: string, actor: AuthUser): Promise<{ deal: CustomerDealView; repossessedat: Date }> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.lock(em, customerId);
      if (row.status === DealStatus.REPOSSESSED) throw alreadyRepossessed(customerId);
      await this.assertCommandsDevice(em, row);
      const repossessedat = await this.contracts.markRepossessed(em, row.id, reason, actor.id);
      await this.commands.enqueue(em, { device: deviceOf(row), action: DeviceAction.PERMANENT_LOCK, nextpaymentdate: row.nextpaymentdate, reason: cutText(`repossessed: ${reason}`, 255), createdBy: actor.id });
      const after = { ...stateOf(row), status: DealStatus.REPOSSESSED };
      await this.events.dealChanged(em, { customerId, customerDealId: row.id, before: stateOf(row), after, today: this.businessClock.today() });
      return { deal: contractView(row, after), repossessedat };
    });
  }

  /**
   * The overdue run, one batch: unlocked deals whose paid-up date has come are locked and their
   * devices told. A device temporarily unlocked keeps the hours it was given (the interface: "unlocked
   * for the given number of hours"): its deal is LOCKED now, and the LOCK goes when the unlock ends
   * (endTemporaryUnlocks pushes the real state).
   */
  lockOverdueBatch(limit: number): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const today = this.businessClock.today();
      const rows = await this.contracts.lockOverdue(em, today, limit);
      for (const row of rows) {
        const after = stateFromAmountPaid(termsOf(row), Money.of(row.amountpaid), row.bonusdays, today, false);
        await this.save(em, row, after, row.bonusdays, 'payment overdue', null);
      }
      return rows.length;
    });
  }

  /**
   * After temporary unlocks end (up to `limit`): each device is told its real state again. Each
   * deal is locked before its unlock, as tempUnlock() takes them (a new unlock settles the old ones
   * under the deal's lock): the other order deadlocked the two. An unlock settled meanwhile by a
   * newer one, or held by another instance, is left alone.
   */
  endTemporaryUnlocks(limit: number): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const expired = await this.commands.expiredTempUnlocks(em, this.clock.now(), limit);
      let restored = 0;
      for (const t of expired) {
        const row = await this.lock(em, t.customerId);
        if (!(await this.commands.claimTempUnlock(em, t.id))) continue;
        restored++;
        // a device financed again since hears its new deal's state, not this one's
        if ((await this.deviceMovedOnFrom(em, row)) === null) {
          await this.commands.enqueue(em, { device: deviceOf(row), action: commandForState(row.status), nextpaymentdate: row.nextpaymentdate, reason: 'temporary unlock ended', createdBy: null });
        }
        await this.commands.markRestored(em, t.id);
        await this.contracts.setUnlockUntil(em, row.id, null);
      }
      return restored;
    });
  }
}
