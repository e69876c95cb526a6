import { Column, Entity, PrimaryColumn } from 'typeorm';
import { NotificationStatus } from '../domain/mobile-money.js';

@Entity('mobile_money_transactions')
export class MobileMoneyTransactionEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount: string;

  @Column({ type: 'varchar', length: 255 })
  tag: string;

  @Column({ type: 'varchar', length: 20 })
  status: NotificationStatus;

  @Column({ name: 'customer_id', type: 'integer', nullable: true })
  customerId: number | null;

  @Column({ type: 'varchar', length: 20 })
  source: 'CALLBACK' | 'LOOKUP' | 'RECON';

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;

  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt: Date | null;

  @Column({ name: 'assigned_by', type: 'integer', nullable: true })
  assignedBy: number | null;

  /** Why a HELD notification waits for an operator. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  reason: string | null;

  /** The body as the provider sent it, unknown fields included. */
  @Column({ type: 'jsonb', nullable: true })
  raw: unknown;
}
