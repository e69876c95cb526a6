import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser, Role } from '../../../common/auth/role.js';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { DealChange, DealEvents } from '../../contracts/application/deal-events.js';
import { DealState, DealStatus } from '../../contracts/domain/credit-policy.js';
import { UsersService } from '../../users/application/users.service.js';
import { userNotFound } from '../../users/domain/user-errors.js';
import {
  assigneeNotCollector,
  CALL_STATUSES,
  CallActor,
  CallStatus,
  callNotFound,
  checkAssignable,
  checkMayAssign,
  checkMayUpdate,
  checkPromiseDate,
  checkTransition,
  Resolution,
} from '../domain/collection-call.js';
import { CallRow, CollectionCallsRepository } from '../infrastructure/collection-calls.repository.js';

/** A call as the API shows it: the row, with money as a number and times as ISO text. */
export type CallView = Omit<CallRow, 'amountinarrears' | 'createdat' | 'calledat' | 'resolvedat' | 'updatedat'> & {
  amountinarrears: number;
  createdat: string;
  calledat: string | null;
  resolvedat: string | null;
};

/** Paid up: the device works again (the paid-up date is ahead) or the deal is paid off. */
const isUpToDate = (state: DealState, today: string) =>
  state.status === DealStatus.PAID_OFF ||
  (state.status !== DealStatus.REPOSSESSED && state.nextpaymentdate > today);

const callActor = (user: AuthUser): CallActor => ({ id: user.id, isCollector: user.role === Role.COLLECTOR });

@Injectable()
export class CollectionsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly calls: CollectionCallsRepository,
    private readonly businessClock: BusinessClock,
    private readonly users: UsersService,
    private readonly dealEvents: DealEvents,
  ) {}

  onModuleInit(): void {
    this.dealEvents.subscribe((em, change) => this.onDealChanged(em, change));
  }

  static view(row: CallRow): CallView {
    return {
      callid: row.callid,
      customerid: row.customerid,
      customerdealid: row.customerdealid,
      fullname: row.fullname,
      telephone: row.telephone,
      payg: row.payg,
      status: row.status,
      amountinarrears: Money.of(row.amountinarrears).toNumber(),
      daysoverdue: row.daysoverdue,
      nextpaymentdate: row.nextpaymentdate,
      assignedto: row.assignedto,
      notes: row.notes,
      promisedate: row.promisedate,
      resolution: row.resolution,
      createdat: row.createdat.toISOString(),
      calledat: row.calledat?.toISOString() ?? null,
      resolvedat: row.resolvedat?.toISOString() ?? null,
    };
  }

  /**
   * Opens one PENDING call per overdue deal (paid-up date today or earlier, still being paid for) that
   * has no open call, and brings the figures of open calls up to today. Idempotent, and safe on
   * several instances at once: the unique index on open calls lets only one call per deal in.
   */
  async generate(): Promise<{ opened: number; refreshed: number; today: string }> {
    const today = this.businessClock.today();
    const opened = await this.calls.openForOverdueDeals(today);
    const refreshed = await this.calls.refreshOpenCalls(today);
    return { opened, refreshed, today };
  }

  async list(
    filter: { status?: CallStatus; assignedto?: number; customerid?: number },
    page: number,
    limit: number,
  ): Promise<Page<CallView>> {
    const { rows, total } = await this.calls.list(filter, this.businessClock.today(), page, limit);
    return { items: rows.map(CollectionsService.view), total, page, limit };
  }

  /** Hands an open call to an active collector; a collector may only claim a call nobody else holds. */
  async assign(callId: number, userId: number, actor: AuthUser): Promise<CallView> {
    // a collector may name only themselves: refused (403) before anything is said about the user named
    checkMayAssign(callActor(actor), null, userId);
    const user = await this.users.find(userId);
    if (!user) throw userNotFound(userId);
    if (user.role !== Role.COLLECTOR || !user.active) throw assigneeNotCollector(userId);
    return this.dataSource.transaction(async (em) => {
      const call = await this.calls.lockCall(em, callId);
      if (!call) throw callNotFound(callId);
      checkMayAssign(callActor(actor), call.assignedto, userId);
      checkAssignable(callId, call.status);
      await this.calls.assign(em, callId, userId, actor.id);
      return this.viewOf(em, callId);
    });
  }

  /**
   * Records the collector's work: PENDING → CALLED → RESOLVED only (409 otherwise), with notes and an
   * optional promise to pay. A collector works only on the calls assigned to them (403).
   */
  async update(
    input: { callid: number; status: CallStatus; notes: string; promisedate?: string },
    actor: AuthUser,
  ): Promise<CallView> {
    checkPromiseDate(input.promisedate, this.businessClock.today());
    return this.dataSource.transaction(async (em) => {
      const call = await this.calls.lockCall(em, input.callid);
      if (!call) throw callNotFound(input.callid);
      checkMayUpdate(callActor(actor), call.assignedto);
      checkTransition(input.callid, call.status, input.status);
      await this.calls.moveTo(em, input.callid, {
        status: input.status,
        notes: input.notes,
        promisedate: input.promisedate,
        by: actor.id,
      });
      return this.viewOf(em, input.callid);
    });
  }

  /** Every call status with its count, zeros included. */
  async stats(): Promise<Record<CallStatus, number>> {
    const counts = Object.fromEntries(CALL_STATUSES.map((s) => [s, 0])) as Record<CallStatus, number>;
    for (const { status, n } of await this.calls.statusCounts()) counts[status] = n;
    return counts;
  }

  /**
   * A repossessed deal, or one that comes up to date, closes its open call in the transaction of the
   * change. Deals that were already up to date cannot have an open call, so they cost no query.
   */
  private async onDealChanged(em: EntityManager, change: DealChange): Promise<void> {
    if (change.after.status === DealStatus.REPOSSESSED) {
      if (change.before.status !== DealStatus.REPOSSESSED)
        await this.calls.resolveOpenCall(em, change.customerDealId, Resolution.REPOSSESSED);
      return;
    }
    if (isUpToDate(change.before, change.today) || !isUpToDate(change.after, change.today)) return;
    const resolution = change.after.amountpaid.gt(change.before.amountpaid)
      ? Resolution.PAYMENT
      : Resolution.BONUS_DAYS;
    await this.calls.resolveOpenCall(em, change.customerDealId, resolution);
  }

  private async viewOf(em: EntityManager, callId: number): Promise<CallView> {
    const row = await this.calls.findById(callId, this.businessClock.today(), em);
    if (!row) throw callNotFound(callId);
    return CollectionsService.view(row);
  }
}
