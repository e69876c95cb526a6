import { ApiProperty } from '@nestjs/swagger';
import { NotEquals } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination.js';
import { IdField, IntField, MoneyField, SearchField, TextField } from '../../../common/validation/fields.js';
import { MAX_STOCK, MovementKind } from '../domain/inventory.js';
import type { ItemView, MovementView } from '../application/inventory.service.js';

export class AddItemRequest {
  @TextField({ example: 'Tecno Spark 20 (64 GB)' })
  itemname: string;

  @IntField(0, MAX_STOCK, { example: 50, description: 'Opening stock.' })
  quantity: number;

  @MoneyField({
    allowZero: true,
    example: 410000,
    description: 'Cost of one unit, ≥ 0 with at most 2 decimals.',
  })
  unitcost: number;

  @TextField({ example: 'Transsion Uganda Ltd' })
  supplier: string;
}

export class ItemIdRequest {
  @IdField({ example: 1 })
  itemid: number;
}

export class AdjustStockRequest {
  @IdField({ example: 1 })
  itemid: number;

  @IntField(-MAX_STOCK, MAX_STOCK, {
    example: -2,
    description: 'Units added (positive) or removed (negative); not zero.',
  })
  @NotEquals(0, { message: 'delta must not be zero' })
  delta: number;

  @TextField({ example: 'Two units delivered to the Mbale agent' })
  reason: string;
}

export class InventoryListQuery extends PageQuery {
  @SearchField({ description: 'Part of the item name or the supplier.', example: 'Tecno' })
  search?: string;
}

export class ItemResponse implements ItemView {
  @ApiProperty({ type: 'integer', example: 1 }) itemid: number;
  @ApiProperty({ example: 'Tecno Spark 20 (64 GB)' }) itemname: string;
  @ApiProperty({ type: 'integer', example: 50 }) quantity: number;
  @ApiProperty({ example: 410000 }) unitcost: number;
  @ApiProperty({ example: 'Transsion Uganda Ltd' }) supplier: string;
  @ApiProperty({ format: 'date-time', example: '2026-03-01T09:30:00.000Z' }) createdat: string;
}

export class CreatedItemResponse extends ItemResponse {
  @ApiProperty({ example: 'Inventory item added.' }) message: string;
}

export class MovementResponse implements MovementView {
  @ApiProperty({ type: 'integer', example: 7 }) movementid: number;
  @ApiProperty({ enum: ['ADD', 'ADJUST'], example: 'ADJUST' }) kind: MovementKind;
  @ApiProperty({ type: 'integer', example: -2 }) delta: number;
  @ApiProperty({ type: 'integer', example: 48 }) quantityafter: number;
  @ApiProperty({ example: 'Two units delivered to the Mbale agent' }) reason: string;
  @ApiProperty({ type: 'integer', example: 3, nullable: true }) createdby: number | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-02T11:00:00.000Z' }) createdat: string;
}

export class ItemDetailsResponse extends ItemResponse {
  @ApiProperty({ type: [MovementResponse], description: 'The latest 50 stock movements, newest first.' })
  history: MovementResponse[];
}

export class AdjustStockResponse extends ItemResponse {
  @ApiProperty({ type: MovementResponse }) movement: MovementResponse;
}

