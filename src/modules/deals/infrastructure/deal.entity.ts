import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('deals')
export class DealEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  dealname: string;

  /** numeric(14,2) arrives from pg as a string; Money.of() reads it exactly. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  totalamount: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  deposit: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  monthly: string;

  @Column({ type: 'integer' })
  months: number;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
