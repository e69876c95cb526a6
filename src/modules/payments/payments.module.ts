import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { ContractsModule } from '../contracts/contracts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { LookupJob, MatchWaitingJob } from './application/lookup.job.js';
import { MobileMoneyService } from './application/mobile-money.service.js';
import { PaymentsService } from './application/payments.service.js';
import { AmlogsController } from './http/amlogs.controller.js';
import { PaymentsController } from './http/payments.controller.js';
import { HttpMobileMoneyProvider, MobileMoneyProvider } from './infrastructure/mobile-money-provider.js';
import { MobileMoneyRepository } from './infrastructure/mobile-money.repository.js';

@Module({
  imports: [CustomersModule, ContractsModule, AccountsModule],
  controllers: [PaymentsController, AmlogsController],
  providers: [PaymentsService, MobileMoneyService, MobileMoneyRepository, LookupJob, MatchWaitingJob, { provide: MobileMoneyProvider, inject: [AppConfig], useFactory: (config: AppConfig) => new HttpMobileMoneyProvider(config.mobileMoney) }],
  exports: [MobileMoneyService],
})
export class PaymentsModule {}
