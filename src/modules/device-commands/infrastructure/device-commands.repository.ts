import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CommandStatus, DeviceAction, NewCommand } from '../domain/device-command.js';

export interface CommandRow {
  id: string;
  commandid: string;
  customer_id: number;
  imei: string;
  serialnumber: string | null;
  payg: string | null;
  action: DeviceAction;
  nextpaymentdate: string | null;
  unlockuntil: Date | null;
  reason: string;
  status: CommandStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
}

/** Filters of the outbox listing; the application layer's CommandFilter has the same shape. */
export interface CommandListFilter {
  customerId?: number;
  status?: CommandStatus;
  action?: DeviceAction;
}

const COLUMNS = 'id, commandid, customer_id, imei, serialnumber, payg, action, nextpaymentdate, unlockuntil, reason, status, attempts, last_error, next_attempt_at, delivered_at, created_at';

@Injectable()
export class DeviceCommandsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, c: NewCommand): Promise<CommandRow> {
    const rows = (await em.query(
      `INSERT INTO device_commands (customer_id, imei, serialnumber, payg, action, nextpaymentdate, unlockuntil, unlock_hours, reason, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [c.device.customerId, c.device.imei, c.device.serialnumber, c.device.payg, c.action, c.nextpaymentdate, c.unlockuntil ?? null, c.unlockHours ?? null, c.reason, c.createdBy],
    )) as CommandRow[];
    return rows[0];
  }

  /** Many commands in one statement (an import), written in the order given (ids ascending). */
  async insertMany(em: EntityManager, commands: NewCommand[]): Promise<void> {
    if (commands.length === 0) return;
    await em.query(
      `INSERT INTO device_commands (customer_id, imei, serialnumber, payg, action, nextpaymentdate, unlockuntil, unlock_hours, reason, created_by)
       SELECT c, i, s, p, a, n, u, h, r, b
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::timestamptz[], $8::int[], $9::text[], $10::int[]) WITH ORDINALITY AS t(c, i, s, p, a, n, u, h, r, b, o)
       ORDER BY o`,
      [
        commands.map((c) => c.device.customerId),
        commands.map((c) => c.device.imei),
        commands.map((c) => c.device.serialnumber),
        commands.map((c) => c.device.payg),
        commands.map((c) => c.action),
        commands.map((c) => c.nextpaymentdate),
        commands.map((c) => c.unlockuntil ?? null),
        commands.map((c) => c.unlockHours ?? null),
        commands.map((c) => c.reason),
        commands.map((c) => c.createdBy),
      ],
    );
  }

  /**
   * The head command of each device that is due, locked for this worker; rows another worker holds
   * are skipped, and a device whose earlier command is still pending (held, or backing off) waits,
   * so commands reach each device in the order they were written. A device is its IMEI, whichever
   * contract wrote the command: a paid-off deal's device financed again is one queue, not two.
   */
  claimDue(em: EntityManager, limit: number): Promise<CommandRow[]> {
    return em.query(
      `SELECT ${COLUMNS} FROM device_commands c
       WHERE c.status = 'PENDING' AND c.next_attempt_at <= now()
         AND NOT EXISTS (SELECT 1 FROM device_commands e WHERE e.imei = c.imei AND e.status = 'PENDING' AND e.id < c.id)
       ORDER BY c.id
       LIMIT $1
       FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async markDelivered(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE device_commands SET status = 'DELIVERED', attempts = attempts + 1, delivered_at = now(), last_error = NULL WHERE id = $1`, [id]);
  }

  async markFailed(em: EntityManager, id: string, error: string, retryInMs: number): Promise<void> {
    await em.query(
      `UPDATE device_commands SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + ($3::int * interval '1 millisecond') WHERE id = $1`,
      [id, error.slice(0, 500), retryInMs],
    );
  }

  /** One page of commands, newest first, narrowed by whichever filters are given, and how many there are. */
  async list(filter: CommandListFilter, page: number, limit: number): Promise<[CommandRow[], number]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.customerId !== undefined) where.push(`customer_id = $${params.push(filter.customerId)}`);
    if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
    if (filter.action !== undefined) where.push(`action = $${params.push(filter.action)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(`SELECT ${COLUMNS} FROM device_commands ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, limit, (page - 1) * limit]),
      this.dataSource.query(`SELECT count(*)::int AS total FROM device_commands ${clause}`, params),
    ]);
    return [rows, total];
  }

  /** Temporary unlocks whose time is up and whose device has not been told its real state yet (not locked). */
  expiredTempUnlocks(em: EntityManager, now: Date, limit: number): Promise<Array<{ id: string; customer_id: number }>> {
    return em.query(
      `SELECT id, customer_id FROM device_commands
       WHERE action = 'TEMP_UNLOCK' AND restored_at IS NULL AND unlockuntil <= $1
       ORDER BY id LIMIT $2`,
      [now, limit],
    );
  }

  /** The temporary unlock, locked, when it is still waiting for its end to be told and nobody else holds it. */
  async claimTempUnlock(em: EntityManager, id: string): Promise<boolean> {
    const rows = (await em.query(`SELECT id FROM device_commands WHERE id = $1 AND restored_at IS NULL FOR UPDATE SKIP LOCKED`, [id])) as unknown[];
    return rows.length > 0;
  }

  async markRestored(em: EntityManager, id: string): Promise<void> {
    await em.query('UPDATE device_commands SET restored_at = now() WHERE id = $1', [id]);
  }

  /** Hours of temporary unlock granted to a customer's device since `since` (by when each was granted). */
  async tempUnlockHoursSince(em: EntityManager, customerId: number, since: Date): Promise<number> {
    const [{ hours }] = (await em.query(
      `SELECT coalesce(sum(unlock_hours), 0)::int AS hours FROM device_commands
       WHERE customer_id = $1 AND action = 'TEMP_UNLOCK' AND unlockuntil - unlock_hours * interval '1 hour' > $2`,
      [customerId, since],
    )) as Array<{ hours: number }>;
    return hours;
  }

  /**
   * The customer's commands not delivered yet carry the device details stored now. One a delivery round
   * is sending at this moment (locked) goes out as it was; if it must be sent again, it keeps them.
   */
  async refreshDeviceDetails(em: EntityManager, customerId: number, payg: string, serialnumber: string): Promise<void> {
    await em.query(
      `UPDATE device_commands SET payg = $2, serialnumber = $3
       WHERE id IN (SELECT id FROM device_commands WHERE customer_id = $1 AND status = 'PENDING' FOR UPDATE SKIP LOCKED)`,
      [customerId, payg, serialnumber],
    );
  }

  /** Earlier temporary unlocks of a device are settled by a newer one. */
  async settleTempUnlocks(em: EntityManager, customerId: number): Promise<void> {
    await em.query(`UPDATE device_commands SET restored_at = now() WHERE customer_id = $1 AND action = 'TEMP_UNLOCK' AND restored_at IS NULL`, [customerId]);
  }

  async pendingCount(): Promise<number> {
    const [{ n }] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)) as Array<{ n: number }>;
    return n;
  }
}
