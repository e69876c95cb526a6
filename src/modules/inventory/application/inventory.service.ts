import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { adjustedQuantity, itemNotFound, MovementKind } from '../domain/inventory.js';
import { InventoryItemEntity } from '../infrastructure/inventory-item.entity.js';
import { InventoryMovementEntity } from '../infrastructure/inventory-movement.entity.js';
import { InventoryRepository } from '../infrastructure/inventory.repository.js';

export interface ItemView {
  itemid: number;
  itemname: string;
  quantity: number;
  unitcost: number;
  supplier: string;
  createdat: string;
}

export interface MovementView {
  movementid: number;
  kind: MovementKind;
  delta: number;
  quantityafter: number;
  reason: string;
  createdby: number | null;
  createdat: string;
}

/** How many of an item's latest stock movements its details show. */
const HISTORY_SHOWN = 50;

@Injectable()
export class InventoryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly inventory: InventoryRepository,
  ) {}

  static view(item: InventoryItemEntity): ItemView {
    return {
      itemid: item.id,
      itemname: item.itemname,
      quantity: item.quantity,
      unitcost: Money.of(item.unitcost).toNumber(),
      supplier: item.supplier,
      createdat: item.createdAt.toISOString(),
    };
  }

  static movementView(m: InventoryMovementEntity): MovementView {
    return {
      movementid: Number(m.id),
      kind: m.kind,
      delta: m.delta,
      quantityafter: m.quantityAfter,
      reason: m.reason,
      createdby: m.createdBy,
      createdat: m.createdAt.toISOString(),
    };
  }

  /** A new item and its opening stock, recorded as the item's first movement. */
  async add(
    input: { itemname: string; quantity: number; unitcost: number; supplier: string },
    userId: number,
  ): Promise<ItemView> {
    return this.dataSource.transaction(async (em) => {
      const item = await this.inventory.insertItem(em, {
        itemname: input.itemname,
        quantity: input.quantity,
        unitcost: Money.of(input.unitcost).toFixed(),
        supplier: input.supplier,
        createdBy: userId,
      });
      await this.inventory.recordMovement(em, {
        itemId: item.id,
        kind: MovementKind.ADD,
        delta: input.quantity,
        quantityAfter: input.quantity,
        reason: 'opening stock',
        createdBy: userId,
      });
      return InventoryService.view(item);
    });
  }

  async details(id: number): Promise<ItemView & { history: MovementView[] }> {
    const item = await this.inventory.findById(id);
    if (!item) throw itemNotFound(id);
    const history = await this.inventory.history(id, HISTORY_SHOWN);
    return { ...InventoryService.view(item), history: history.map(InventoryService.movementView) };
  }

  async list(page: number, limit: number, search?: string): Promise<Page<ItemView>> {
    const [items, total] = await this.inventory.list(page, limit, search);
    return { items: items.map(InventoryService.view), total, page, limit };
  }

  /** Adds or removes stock under a row lock: the quantity never goes below zero (409) and every change is recorded. */
  async adjust(
    input: { itemid: number; delta: number; reason: string },
    userId: number,
  ): Promise<ItemView & { movement: MovementView }> {
    return this.dataSource.transaction(async (em) => {
      const item = await this.inventory.findByIdForUpdate(em, input.itemid);
      if (!item) throw itemNotFound(input.itemid);
      const quantity = adjustedQuantity(item.id, item.quantity, input.delta);
      await this.inventory.setQuantity(em, item.id, quantity);
      const movement = await this.inventory.recordMovement(em, {
        itemId: item.id,
        kind: MovementKind.ADJUST,
        delta: input.delta,
        quantityAfter: quantity,
        reason: input.reason,
        createdBy: userId,
      });
      return {
        ...InventoryService.view({ ...item, quantity }),
        movement: InventoryService.movementView(movement),
      };
    });
  }
}
