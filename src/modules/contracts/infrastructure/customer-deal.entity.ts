import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DealStatus } from '../domain/credit-policy.js';

/** A customer's assignment to a deal: the terms copied at registration and the state the ledger implies. */
@Entity('customer_deals')
export class CustomerDealEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'customer_id', type: 'integer' })
  customerId: number;

  @Column({ name: 'deal_id', type: 'integer' })
  dealId: number;

  @Column({ type: 'varchar', length: 255 })
  dealname: string;

  @Column({ type: 'varchar', length: 20 })
  status: DealStatus;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  totalamount: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  monthly: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  depositpaid: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amountpaid: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  balance: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  overpaid: string;

  @Column({ type: 'integer' })
  bonusdays: number;

  @Column({ type: 'date' })
  startdate: string;

  @Column({ type: 'date' })
  nextpaymentdate: string;

  /** The financed device's IMEI, copied from the customer at registration: unique among LOCKED and UNLOCKED deals. */
  @Column({ type: 'varchar', length: 32 })
  imei: string;

  @Column({ name: 'repossessed_at', type: 'timestamptz', nullable: true })
  repossessedAt: Date | null;

  @Column({ name: 'repossession_reason', type: 'varchar', length: 255, nullable: true })
  repossessionReason: string | null;

  @Column({ name: 'repossessed_by', type: 'integer', nullable: true })
  repossessedBy: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
