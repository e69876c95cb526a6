import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { ContractsService } from './application/contracts.service.js';
import { ContractsController } from './http/contracts.controller.js';

@Module({
  imports: [CustomersModule],
  controllers: [ContractsController],
  providers: [ContractsService],
})
export class ContractsModule {}
