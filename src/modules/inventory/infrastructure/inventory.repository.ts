import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { containsPattern } from '../../../common/database/sql.js';
import { MovementKind } from '../domain/inventory.js';
import { InventoryItemEntity } from './inventory-item.entity.js';
import { InventoryMovementEntity } from './inventory-movement.entity.js';

@Injectable()
export class InventoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private items(em?: EntityManager) {
    return (em ?? this.dataSource.manager).getRepository(InventoryItemEntity);
  }

  private movements(em?: EntityManager) {
    return (em ?? this.dataSource.manager).getRepository(InventoryMovementEntity);
  }

  insertItem(
    em: EntityManager,
    item: Pick<InventoryItemEntity, 'itemname' | 'quantity' | 'unitcost' | 'supplier' | 'createdBy'>,
  ): Promise<InventoryItemEntity> {
    const repo = this.items(em);
    return repo.save(repo.create(item));
  }

  findById(id: number): Promise<InventoryItemEntity | null> {
    return this.items().findOne({ where: { id } });
  }

  /** The item under a row lock, so two adjustments of one item apply one after the other. */
  findByIdForUpdate(em: EntityManager, id: number): Promise<InventoryItemEntity | null> {
    return this.items(em)
      .createQueryBuilder('i')
      .where('i.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  async setQuantity(em: EntityManager, id: number, quantity: number): Promise<void> {
    await this.items(em).update({ id }, { quantity });
  }

  recordMovement(
    em: EntityManager,
    movement: {
      itemId: number;
      kind: MovementKind;
      delta: number;
      quantityAfter: number;
      reason: string;
      createdBy: number;
    },
  ): Promise<InventoryMovementEntity> {
    const repo = this.movements(em);
    return repo.save(repo.create(movement));
  }

  history(itemId: number, limit: number): Promise<InventoryMovementEntity[]> {
    return this.movements().find({ where: { itemId }, order: { id: 'DESC' }, take: limit });
  }

  list(page: number, limit: number, search?: string): Promise<[InventoryItemEntity[], number]> {
    const query = this.items().createQueryBuilder('i');
    if (search) {
      const pattern = containsPattern(search);
      query.where(
        new Brackets((w) =>
          w.where('i.itemname ILIKE :pattern', { pattern }).orWhere('i.supplier ILIKE :pattern', { pattern }),
        ),
      );
    }
    return query
      .orderBy('i.id', 'ASC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
  }
}
