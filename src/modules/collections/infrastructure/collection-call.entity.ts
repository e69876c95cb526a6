import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CallStatus, Resolution } from '../domain/collection-call.js';

/** A call to a customer whose deal is overdue; one open call per deal at most. */
@Entity('collection_calls')
export class CollectionCallEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'customer_id', type: 'integer' })
  customerId: number;

  @Column({ name: 'customer_deal_id', type: 'integer' })
  customerDealId: number;

  @Column({ type: 'varchar', length: 10 })
  status: CallStatus;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amountinarrears: string;

  @Column({ type: 'integer' })
  daysoverdue: number;

  @Column({ type: 'date' })
  nextpaymentdate: string;

  @Column({ name: 'assigned_to', type: 'integer', nullable: true })
  assignedTo: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  notes: string | null;

  @Column({ type: 'date', nullable: true })
  promisedate: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  resolution: Resolution | null;

  @Column({ name: 'updated_by', type: 'integer', nullable: true })
  updatedBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'called_at', type: 'timestamptz', nullable: true })
  calledAt: Date | null;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
