import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { Role } from '../../../common/auth/role.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { InventoryService } from '../application/inventory.service.js';
import {
  AddItemRequest,
  AdjustStockRequest,
  AdjustStockResponse,
  CreatedItemResponse,
  InventoryListQuery,
  ItemDetailsResponse,
  ItemIdRequest,
  ItemResponse,
} from './inventory.dto.js';

@ApiTags('Inventory')
@Controller('finance/inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Post('add')
  @Endpoint({
    summary: 'Add an inventory item',
    description:
      'Quantity 0–1,000,000 is the opening stock, recorded as the item’s first movement; unitcost ≥ 0 with at most 2 decimals.',
    roles: [Role.OPERATOR],
    status: HttpStatus.CREATED,
    response: CreatedItemResponse,
  })
  async add(@Body() body: AddItemRequest, @CurrentUser() user: AuthUser): Promise<CreatedItemResponse> {
    return { message: 'Inventory item added.', ...(await this.inventory.add(body, user.id)) };
  }

  @Post('details')
  @Endpoint({
    summary: 'An item with its latest stock movements',
    roles: [Role.OPERATOR],
    response: ItemDetailsResponse,
    errors: [404],
  })
  details(@Body() body: ItemIdRequest): Promise<ItemDetailsResponse> {
    return this.inventory.details(body.itemid);
  }

  @Post('adjust')
  @Endpoint({
    summary: 'Add or remove stock',
    description:
      'The change and its reason are recorded with who made it. Stock never goes below zero (409) nor above 1,000,000 (409).',
    roles: [Role.OPERATOR],
    response: AdjustStockResponse,
    errors: [404, 409],
  })
  adjust(@Body() body: AdjustStockRequest, @CurrentUser() user: AuthUser): Promise<AdjustStockResponse> {
    return this.inventory.adjust(body, user.id);
  }

  @Get()
  @Endpoint({
    summary: 'List inventory items',
    description: 'Paged; `search` matches part of the item name or supplier.',
    roles: [Role.OPERATOR],
    response: PageOf(ItemResponse),
  })
  list(@Query() query: InventoryListQuery): Promise<Page<ItemResponse>> {
    return this.inventory.list(query.page, query.limit, query.search);
  }
}
