import { Module } from '@nestjs/common';
import { DashboardService } from './application/dashboard.service.js';
import { ReportsService } from './application/reports.service.js';
import { DashboardController } from './http/dashboard.controller.js';
import { ReportsController } from './http/reports.controller.js';
import { PaymentsPerDayRepository } from './infrastructure/payments-per-day.repository.js';
import { PortfolioRepository } from './infrastructure/portfolio.repository.js';

@Module({
  controllers: [ReportsController, DashboardController],
  providers: [ReportsService, PortfolioRepository, DashboardService, PaymentsPerDayRepository],
})
export class ReportsModule {}
