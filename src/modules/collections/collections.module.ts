import { Module } from '@nestjs/common';
import { ContractsModule } from '../contracts/contracts.module.js';
import { UsersModule } from '../users/users.module.js';
import { CollectionsJob } from './application/collections.job.js';
import { CollectionsService } from './application/collections.service.js';
import { CollectionsController } from './http/collections.controller.js';
import { CollectionCallsRepository } from './infrastructure/collection-calls.repository.js';

@Module({
  imports: [ContractsModule, UsersModule],
  controllers: [CollectionsController],
  providers: [CollectionsService, CollectionsJob, CollectionCallsRepository],
  exports: [CollectionsService],
})
export class CollectionsModule {}
