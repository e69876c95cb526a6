import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './common/audit/audit.module.js';
import { CoreModule } from './common/core.module.js';
import { loggingParams } from './common/logging/logging.js';
import { Clock } from './common/time/clock.js';
import { AppConfig } from './config/app-config.js';
import { dataSourceOptions } from './database/data-source-options.js';
import { AccountsModule } from './modules/accounts/accounts.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { ContractsModule } from './modules/contracts/contracts.module.js';
import { CustomersModule } from './modules/customers/customers.module.js';
import { DeviceCommandsModule } from './modules/device-commands/device-commands.module.js';
import { DevicesModule } from './modules/devices/devices.module.js';
import { DealsModule } from './modules/deals/deals.module.js';
import { PaymentsModule } from './modules/payments/payments.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { UsersModule } from './modules/users/users.module.js';
import { InventoryModule } from './modules/inventory/inventory.module.js';
import { CollectionsModule } from './modules/collections/collections.module.js';
import { ReportsModule } from './modules/reports/reports.module.js';
import { FeedbackModule } from './modules/feedback/feedback.module.js';
import { MessagesModule } from './modules/messages/messages.module.js';
import { ImportsModule } from './modules/imports/imports.module.js';
import { ExportsModule } from './modules/exports/exports.module.js';
import { AuditReadModule } from './modules/audit/audit.module.js';
import { ClientConfigModule } from './modules/client-config/client-config.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    if (!config.database.url) throw new Error('AppModule needs a resolved database URL');
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, clock),
        LoggerModule.forRoot(loggingParams(config)),
        TypeOrmModule.forRoot(dataSourceOptions(config.database.url, config.database.poolSize, config.database.idleInTransactionMs)),
        ScheduleModule.forRoot(),
        AuditModule,
        HealthModule,
        UsersModule,
        AuthModule,
        DealsModule,
        AccountsModule,
        CustomersModule,
        PaymentsModule,
        DeviceCommandsModule,
        DevicesModule,
        ContractsModule,
        InventoryModule,
        CollectionsModule,
        ReportsModule,
        FeedbackModule,
        MessagesModule,
        ImportsModule,
        ExportsModule,
        AuditReadModule,
        ClientConfigModule,
      ],
    };
  }
}
