import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PaymentType } from '../domain/payment-type.js';

/** One ledger row per payment. Rows are never updated or deleted (a database trigger refuses it). */
@Entity('payments')
export class PaymentEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'customer_id', type: 'integer' })
  customerId: number;

  @Column({ name: 'customer_deal_id', type: 'integer' })
  customerDealId: number;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount: string;

  @Column({ type: 'varchar', length: 255 })
  reference: string;

  @Column({ type: 'varchar', length: 255 })
  narration: string;

  @Column({ type: 'varchar', length: 20 })
  type: PaymentType;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
