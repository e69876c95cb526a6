import { Module } from '@nestjs/common';
import { ReportsService } from './application/reports.service.js';
import { ReportsController } from './http/reports.controller.js';
import { PortfolioRepository } from './infrastructure/portfolio.repository.js';

@Module({
  controllers: [ReportsController],
  providers: [ReportsService, PortfolioRepository],
})
export class ReportsModule {}
