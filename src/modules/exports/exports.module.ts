import { Module } from '@nestjs/common';
import { ExportsService } from './application/exports.service.js';
import { ExportsController } from './http/exports.controller.js';
import { ExportsRepository } from './infrastructure/exports.repository.js';

/** CSV exports streamed from PostgreSQL with constant memory (DESIGN part 12): a read model, it writes nothing. */
@Module({
  controllers: [ExportsController],
  providers: [ExportsService, ExportsRepository],
})
export class ExportsModule {}
