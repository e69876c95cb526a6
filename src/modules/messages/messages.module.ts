import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { ContractsModule } from '../contracts/contracts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { MessageWording } from './application/message-wording.js';
import { MessagesService } from './application/messages.service.js';
import { RemindersJob } from './application/reminders.job.js';
import { SmsDeliveryWorker } from './application/sms-delivery.worker.js';
import { DeliveryReportKeyGuard, DeliveryReportsController } from './http/delivery-reports.controller.js';
import { MessagesController } from './http/messages.controller.js';
import { MessagesRepository } from './infrastructure/messages.repository.js';
import { AfricasTalkingGateway, SmsGateway } from './infrastructure/sms-gateway.js';

/**
 * Customer messages by SMS (DESIGN part 11): the outbox written by deal events, reminders, the
 * delivery worker and the gateway adapter; owns sms_messages and customer_preferences.
 */
@Module({
  imports: [CustomersModule, ContractsModule],
  controllers: [MessagesController, DeliveryReportsController],
  providers: [MessagesService, MessageWording, MessagesRepository, SmsDeliveryWorker, RemindersJob, DeliveryReportKeyGuard, { provide: SmsGateway, inject: [AppConfig], useFactory: (config: AppConfig) => new AfricasTalkingGateway(config.sms) }],
  exports: [MessagesService],
})
export class MessagesModule {}
