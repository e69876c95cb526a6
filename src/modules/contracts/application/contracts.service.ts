import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { conflict } from '../../../common/errors/domain-error.js';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { Money } from '../../../common/money/money.js';
import { LedgerService, PaymentView, referenceUsed } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/infrastructure/payment.entity.js';
import { CommandView, DeviceCommandsService } from '../../device-commands/application/device-commands.service.js';
import { commandForState, commandForTransition, DeviceAction, DeviceRef } from '../../device-commands/domain/device-command.js';
import { customerNotFound } from '../domain/customer.js';
import { applyPayment, ContractTerms, DealState, DealStatus, stateFromAmountPaid } from '../domain/credit-policy.js';
import { CustomerDealRow, CustomerDealsRepository, DealStateUpdate } from '../infrastructure/customer-deals.repository.js';
import { CustomerDealView } from './customer-views.js';
import { CustomersService } from './customers.service.js';
import { DealEvents } from './deal-events.js';

export interface CreditInput {
  customerId: number;
  amount: Money;
  reference: string;
  narration: string;
  type: PaymentType;
  createdBy: number | null;
}

export interface CreditResult {
  payment: PaymentView;
  before: DealStatus;
  deal: CustomerDealView;
}

export function termsOf(row: CustomerDealRow): ContractTerms {
  return { totalamount: Money.of(row.totalamount), monthly: Money.of(row.monthly), depositpaid: Money.of(row.depositpaid), startdate: row.startdate };
}

function stateUpdate(after: DealState, bonusdays: number): DealStateUpdate {
  return { status: after.status, amountpaid: after.amountpaid.toFixed(), balance: after.balance.toFixed(), overpaid: after.overpaid.toFixed(), bonusdays, nextpaymentdate: after.nextpaymentdate };
}

export function stateOf(row: CustomerDealRow): DealState {
  return { amountpaid: Money.of(row.amountpaid), balance: Money.of(row.balance), overpaid: Money.of(row.overpaid), nextpaymentdate: row.nextpaymentdate, status: row.status };
}

export function deviceOf(row: CustomerDealRow): DeviceRef {
  return { customerId: row.customer_id, imei: row.imei, serialnumber: row.serialnumber, payg: row.payg };
}

export function dealViewOf(row: CustomerDealRow, state: DealState = stateOf(row), bonusdays = row.bonusdays): CustomerDealView {
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
    bonusdays,
    startdate: row.startdate,
    nextpaymentdate: state.nextpaymentdate,
  };
}

export const alreadyRepossessed = (customerId: number) => conflict('ALREADY_REPOSSESSED', `Customer ${customerId} is already repossessed.`);
const repossessed = (customerId: number, consequence: string) => conflict('DEAL_REPOSSESSED', `Customer ${customerId}'s deal is repossessed: ${consequence}.`);
const paidOffNoBonus = (customerId: number) => conflict('DEAL_PAID_OFF', `Customer ${customerId}'s deal is paid off: the device is released, no bonus days.`);
const paidOffNoUnlock = (customerId: number) => conflict('DEAL_PAID_OFF', `Customer ${customerId}'s deal is paid off: the device is released for good, there is nothing to unlock.`);
const bonusLimit = (customerId: number, granted: number, max: number) =>
  conflict('BONUS_DAYS_LIMIT', `Customer ${customerId}'s deal has ${granted} bonus days; at most ${max} may be granted in total (BONUS_DAYS_MAX).`);
const tempUnlockLimit = (customerId: number, granted: number, max: number) =>
  conflict('TEMP_UNLOCK_LIMIT', `Customer ${customerId}'s device was unlocked for ${granted} hours in the last 30 days; at most ${max} hours are allowed (TEMP_UNLOCK_MAX_HOURS).`);
export const nothingToSync = (customerId: number, date: string) =>
  conflict('NOTHING_TO_SYNC', `Customer ${customerId}'s next payment date ${date} is not in the future: there is no paid-up state to push.`);

/**
 * Every change of a deal's money or state goes through here, inside the caller's transaction: the
 * deal row is locked, the change applied by the credit policy, and the command that tells the
 * device about it written to the outbox in the same transaction.
 */
/** A customer's deal row locked for the current transaction (from insertThenLock), to hand to credit(). */
export type LockedDeal = CustomerDealRow;

@Injectable()
export class DealStateService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly customerDeals: CustomerDealsRepository,
    private readonly customers: CustomersService,
    private readonly commands: DeviceCommandsService,
    private readonly events: DealEvents,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  private async lock(em: EntityManager, customerId: number): Promise<CustomerDealRow> {
    const row = await this.customerDeals.lockByCustomerId(customerId, em);
    if (!row) throw customerNotFound(customerId);
    return row;
  }

  /** Writes the new state, tells the device what changed, and lets other modules react. */
  private async save(em: EntityManager, row: CustomerDealRow, after: DealState, bonusdays: number, reason: string, by: number | null, forced?: DeviceAction): Promise<CustomerDealView> {
    await this.customerDeals.update(em, row.id, stateUpdate(after, bonusdays));
    return this.changed(em, row, after, bonusdays, reason, by, forced);
  }

  /** After the new state is written: the device command it calls for, and the other modules' reactions. */
  private async changed(em: EntityManager, row: CustomerDealRow, after: DealState, bonusdays: number, reason: string, by: number | null, forced?: DeviceAction): Promise<CustomerDealView> {
    const action = forced ?? commandForTransition(row, after);
    if (action) {
      await this.commands.enqueue(em, { device: deviceOf(row), action, nextpaymentdate: after.nextpaymentdate, reason, createdBy: by });
    }
    await this.events.dealChanged(em, { customerId: row.customer_id, customerDealId: row.id, before: stateOf(row), after, today: this.customers.today() });
    return dealViewOf(row, after, bonusdays);
  }

  /**
   * Records a payment and applies the credit policy under the deal's row lock. The ledger row and
   * the new state go in with one statement; a reference its source already used is a 409.
   */
  async credit(em: EntityManager, input: CreditInput, locked?: LockedDeal): Promise<CreditResult> {
    const row = locked ?? (await this.lock(em, input.customerId));
    const after = applyPayment(termsOf(row), stateOf(row), input.amount, row.bonusdays, this.customers.today(), row.status === DealStatus.REPOSSESSED);
    const entry = { customerId: input.customerId, customerDealId: row.id, amount: input.amount.toFixed(), reference: input.reference, narration: input.narration, type: input.type, createdBy: input.createdBy };
    const recorded = await this.customerDeals.recordPayment(em, entry, stateUpdate(after, row.bonusdays));
    if (!recorded) throw referenceUsed(input.reference);
    // the command names the payment by its id: a reference may be up to 255 characters, the reason column too
    const deal = await this.changed(em, row, after, row.bonusdays, `payment #${recorded.id}`, input.createdBy);
    return { payment: LedgerService.view(recorded), before: row.status, deal };
  }

  /**
   * Stores another module's row and locks the deal of the customer it names, in one statement (see
   * CustomerDealsRepository.insertThenLock); pass the answer's `deal` to credit(). undefined: nothing
   * was written; `customerId` null: the row names no customer.
   */
  insertThenLock(em: EntityManager, name: string, insert: string, values: unknown[]) {
    return this.customerDeals.insertThenLock(em, name, insert, values);
  }

  /** Bonus days extend the paid-up date, never touch the balance, and are recorded with who granted them. */
  async grantBonus(em: EntityManager, customerId: number, days: number, actor: AuthUser, route: string): Promise<CustomerDealView> {
    const row = await this.lock(em, customerId);
    if (row.status === DealStatus.REPOSSESSED) throw repossessed(customerId, 'no bonus days');
    // a SYNC with a paid-up date would arm the device's own lock again after its release
    if (row.status === DealStatus.PAID_OFF) throw paidOffNoBonus(customerId);
    if (row.bonusdays + days > this.config.bonusDaysMax) throw bonusLimit(customerId, row.bonusdays, this.config.bonusDaysMax);
    await this.customerDeals.insertBonusGrant(em, row.id, days, actor.id, route);
    const bonusdays = row.bonusdays + days;
    const after = stateFromAmountPaid(termsOf(row), Money.of(row.amountpaid), bonusdays, this.customers.today(), false);
    return this.save(em, row, after, bonusdays, `${days} bonus days`, actor.id, DeviceAction.SYNC);
  }

  /** Bonus days in a transaction of their own (customers/bonus and device/bonus-days). */
  grantBonusNow(customerId: number, days: number, actor: AuthUser, route: string): Promise<CustomerDealView> {
    return this.dataSource.transaction((em) => this.grantBonus(em, customerId, days, actor, route));
  }

  /** Re-pushes the paid-up state (a paid-off deal's release); only meaningful while the paid-up date is ahead. */
  async syncStatus(em: EntityManager, customerId: number, actor: AuthUser): Promise<CommandView> {
    const row = await this.lock(em, customerId);
    if (!(row.nextpaymentdate > this.customers.today()) || row.status === DealStatus.REPOSSESSED) throw nothingToSync(customerId, row.nextpaymentdate);
    const action = row.status === DealStatus.PAID_OFF ? DeviceAction.RELEASE : DeviceAction.SYNC;
    return this.commands.enqueue(em, { device: deviceOf(row), action, nextpaymentdate: row.nextpaymentdate, reason: 'status re-push', createdBy: actor.id });
  }

  /**
   * Unlocks the device for `hours`; the deal's status and balance stay as they are. A repossessed
   * device stays locked, a paid-off one is released already, and a deal gets at most
   * TEMP_UNLOCK_MAX_HOURS in any 30 days (hours granted count, also when a newer unlock cut one short),
   * so chained unlocks end.
   */
  async tempUnlock(em: EntityManager, customerId: number, hours: number, actor: AuthUser): Promise<CommandView> {
    const row = await this.lock(em, customerId);
    if (row.status === DealStatus.REPOSSESSED) throw repossessed(customerId, 'the device stays locked for good');
    if (row.status === DealStatus.PAID_OFF) throw paidOffNoUnlock(customerId);
    const now = this.clock.now();
    const granted = await this.commands.tempUnlockHoursSince(em, customerId, new Date(now.getTime() - 30 * 86_400_000));
    const max = this.config.tempUnlockMaxHours;
    if (granted + hours > max) throw tempUnlockLimit(customerId, granted, max);
    return this.commands.enqueueTempUnlock(em, {
      device: deviceOf(row),
      action: DeviceAction.TEMP_UNLOCK,
      nextpaymentdate: row.nextpaymentdate,
      unlockuntil: new Date(now.getTime() + hours * 3_600_000),
      unlockHours: hours,
      reason: 'temporary unlock for investigation',
      createdBy: actor.id,
    });
  }

  /** After a temporary unlock ends: tell the device its real state again. */
  async restoreRealState(em: EntityManager, customerId: number): Promise<void> {
    const row = await this.lock(em, customerId);
    await this.commands.enqueue(em, { device: deviceOf(row), action: commandForState(row.status), nextpaymentdate: row.nextpaymentdate, reason: 'temporary unlock ended', createdBy: null });
  }

  /** Contract, deal and customer repossessed; the device locked for good. */
  async repossess(em: EntityManager, customerId: number, reason: string, actor: AuthUser): Promise<{ deal: CustomerDealView; repossessedat: Date }> {
    const row = await this.lock(em, customerId);
    if (row.status === DealStatus.REPOSSESSED) throw alreadyRepossessed(customerId);
    const repossessedat = await this.customerDeals.markRepossessed(em, row.id, reason, actor.id);
    await this.customers.markRepossessed(em, customerId);
    await this.commands.enqueue(em, { device: deviceOf(row), action: DeviceAction.PERMANENT_LOCK, nextpaymentdate: row.nextpaymentdate, reason: `repossessed: ${reason}`.slice(0, 255), createdBy: actor.id });
    const after = { ...stateOf(row), status: DealStatus.REPOSSESSED };
    await this.events.dealChanged(em, { customerId, customerDealId: row.id, before: stateOf(row), after, today: this.customers.today() });
    return { deal: dealViewOf(row, after), repossessedat };
  }

  /** The overdue run: unlocked deals whose paid-up date has come are locked and their devices told. */
  async lockOverdue(em: EntityManager, limit: number): Promise<number> {
    const today = this.customers.today();
    const rows = await this.customerDeals.lockOverdue(em, today, limit);
    for (const row of rows) {
      const after = stateFromAmountPaid(termsOf(row), Money.of(row.amountpaid), row.bonusdays, today, false);
      await this.save(em, row, after, row.bonusdays, 'payment overdue', null);
    }
    return rows.length;
  }
}
