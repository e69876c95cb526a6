import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CommandStatus, DeviceAction } from '../domain/device-command.js';

@Entity('device_commands')
export class DeviceCommandEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'uuid', unique: true })
  commandid: string;

  @Column({ name: 'customer_id', type: 'integer' })
  customerId: number;

  @Column({ type: 'varchar', length: 32 })
  imei: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  serialnumber: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  payg: string | null;

  @Column({ type: 'varchar', length: 20 })
  action: DeviceAction;

  @Column({ type: 'date', nullable: true })
  nextpaymentdate: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  unlockuntil: Date | null;

  /** Hours a TEMP_UNLOCK granted (they count against TEMP_UNLOCK_MAX_HOURS in any 30 days). */
  @Column({ name: 'unlock_hours', type: 'integer', nullable: true })
  unlockHours: number | null;

  @Column({ type: 'varchar', length: 255 })
  reason: string;

  @Column({ type: 'varchar', length: 20 })
  status: CommandStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'restored_at', type: 'timestamptz', nullable: true })
  restoredAt: Date | null;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
