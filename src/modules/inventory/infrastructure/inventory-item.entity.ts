import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('inventory_items')
export class InventoryItemEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  itemname: string;

  @Column({ type: 'integer' })
  quantity: number;

  /** numeric(14,2) arrives from pg as a string; Money.of() reads it exactly. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  unitcost: string;

  @Column({ type: 'varchar', length: 255 })
  supplier: string;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
