import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CustomerStatus, SalesStage } from '../domain/customer.js';

@Entity('customers')
export class CustomerEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'varchar', length: 255 })
  fullname: string;

  @Column({ type: 'varchar', length: 32 })
  telephone: string;

  @Column({ type: 'varchar', length: 255 })
  guarantorname: string;

  @Column({ type: 'varchar', length: 255 })
  guarantorcontact: string;

  @Column({ type: 'varchar', length: 32 })
  imei: string;

  @Column({ type: 'varchar', length: 64 })
  payg: string;

  /** 0, except for a code stored before codes were compared ignoring letter case that equals an older one so (see identifier_conflicts). */
  @Column({ name: 'payg_legacy_duplicate', type: 'smallint', default: 0 })
  paygLegacyDuplicate: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  serialnumber: string | null;

  @Column({ type: 'varchar', length: 20 })
  salesstage: SalesStage;

  @Column({ type: 'varchar', length: 20 })
  status: CustomerStatus;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
