import { Module } from '@nestjs/common';
import { DealsService } from './application/deals.service.js';
import { DealsController } from './http/deals.controller.js';
import { DealsRepository } from './infrastructure/deals.repository.js';

@Module({
  controllers: [DealsController],
  providers: [DealsService, DealsRepository],
  exports: [DealsService],
})
export class DealsModule {}
