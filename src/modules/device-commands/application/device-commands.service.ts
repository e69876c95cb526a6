import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommandStatus, DeviceAction, NewCommand } from '../domain/device-command.js';
import type { Page } from '../../../common/http/pagination.js';
import { CommandRow, DeviceCommandsRepository } from '../infrastructure/device-commands.repository.js';
import { LockPlatform } from '../infrastructure/lock-platform.js';

export interface CommandView {
  commandid: string;
  customerid: number;
  action: string;
  status: string;
  nextpaymentdate: string | null;
  unlockuntil: string | null;
  reason: string;
  attempts: number;
  lasterror: string | null;
  nextattemptat: string | null;
  createdat: string;
  deliveredat: string | null;
}

export function commandView(row: CommandRow): CommandView {
  return {
    commandid: row.commandid,
    customerid: row.customer_id,
    action: row.action,
    status: row.status,
    nextpaymentdate: row.nextpaymentdate,
    unlockuntil: row.unlockuntil ? new Date(row.unlockuntil).toISOString() : null,
    reason: row.reason,
    attempts: row.attempts,
    lasterror: row.last_error,
    nextattemptat: row.status === 'PENDING' ? new Date(row.next_attempt_at).toISOString() : null,
    createdat: new Date(row.created_at).toISOString(),
    deliveredat: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
  };
}

export interface CommandFilter {
  customerId?: number;
  status?: CommandStatus;
  action?: DeviceAction;
}

/** The outbox: commands are written inside the caller's transaction, next to the change they announce. */
@Injectable()
export class DeviceCommandsService {
  constructor(
    private readonly commands: DeviceCommandsRepository,
    private readonly platform: LockPlatform,
  ) {}

  async enqueue(em: EntityManager, command: NewCommand): Promise<CommandView> {
    return commandView(await this.commands.insert(em, command));
  }

  /** enqueue() for many devices in one round trip (an import). */
  enqueueMany(em: EntityManager, commands: NewCommand[]): Promise<void> {
    return this.commands.insertMany(em, commands);
  }

  /** After lock-update: the commands still waiting name the device as it is now known. */
  refreshDeviceDetails(em: EntityManager, customerId: number, payg: string, serialnumber: string): Promise<void> {
    return this.commands.refreshDeviceDetails(em, customerId, payg, serialnumber);
  }

  /** A new temporary unlock settles earlier ones: only the newest one's end restores the device. */
  async enqueueTempUnlock(em: EntityManager, command: NewCommand): Promise<CommandView> {
    await this.commands.settleTempUnlocks(em, command.device.customerId);
    return this.enqueue(em, command);
  }

  /** Temporary unlocks whose time is up and whose device has not been told its real state yet (read, not locked: see claimTempUnlock). */
  async expiredTempUnlocks(em: EntityManager, now: Date, limit: number): Promise<Array<{ id: string; customerId: number }>> {
    return (await this.commands.expiredTempUnlocks(em, now, limit)).map((t) => ({ id: t.id, customerId: t.customer_id }));
  }

  /**
   * Locks one expired temporary unlock for this transaction, once its deal is locked (the order in
   * which a new temporary unlock takes them: deal, then the unlocks it settles); false when it has
   * been settled or restored meanwhile, or another instance holds it.
   */
  claimTempUnlock(em: EntityManager, id: string): Promise<boolean> {
    return this.commands.claimTempUnlock(em, id);
  }

  markRestored(em: EntityManager, id: string): Promise<void> {
    return this.commands.markRestored(em, id);
  }

  tempUnlockHoursSince(em: EntityManager, customerId: number, since: Date): Promise<number> {
    return this.commands.tempUnlockHoursSince(em, customerId, since);
  }

  /** The outbox, newest first: every command, or those of one customer, state or action. */
  async list(filter: CommandFilter, page: number, limit: number): Promise<Page<CommandView>> {
    const [rows, total] = await this.commands.list(filter, page, limit);
    return { items: rows.map(commandView), total, page, limit };
  }

  get platformConfigured(): boolean {
    return this.platform.configured;
  }

  pendingCount(): Promise<number> {
    return this.commands.pendingCount();
  }
}
