import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { MovementKind } from '../domain/inventory.js';

/** One change of an item's stock, as it happened: never updated, never deleted. */
@Entity('inventory_movements')
export class InventoryMovementEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'item_id', type: 'integer' })
  itemId: number;

  @Column({ type: 'varchar', length: 10 })
  kind: MovementKind;

  @Column({ type: 'integer' })
  delta: number;

  @Column({ name: 'quantity_after', type: 'integer' })
  quantityAfter: number;

  @Column({ type: 'varchar', length: 255 })
  reason: string;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
