import { Module } from '@nestjs/common';
import { InventoryService } from './application/inventory.service.js';
import { InventoryController } from './http/inventory.controller.js';
import { InventoryRepository } from './infrastructure/inventory.repository.js';

@Module({
  controllers: [InventoryController],
  providers: [InventoryService, InventoryRepository],
  exports: [InventoryService],
})
export class InventoryModule {}
