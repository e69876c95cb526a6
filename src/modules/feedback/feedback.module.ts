import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { FeedbackService } from './application/feedback.service.js';
import { FeedbackController } from './http/feedback.controller.js';
import { FeedbackRepository } from './infrastructure/feedback.repository.js';

@Module({
  imports: [CustomersModule],
  controllers: [FeedbackController],
  providers: [FeedbackService, FeedbackRepository],
})
export class FeedbackModule {}
