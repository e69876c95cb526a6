import { Injectable } from '@nestjs/common';
import { Page } from '../../../common/http/pagination.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import { FeedbackCategory } from '../domain/feedback.js';
import { FeedbackEntity } from '../infrastructure/feedback.entity.js';
import { FeedbackRepository } from '../infrastructure/feedback.repository.js';

export interface FeedbackView {
  feedbackid: number;
  customerid: number;
  category: FeedbackCategory;
  message: string;
  createdby: number | null;
  createdat: string;
}

@Injectable()
export class FeedbackService {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly customers: CustomersService,
  ) {}

  static view(f: FeedbackEntity): FeedbackView {
    return {
      feedbackid: f.id,
      customerid: f.customerId,
      category: f.category,
      message: f.message,
      createdby: f.createdBy,
      createdat: f.createdAt.toISOString(),
    };
  }

  /** Records what a customer said; 404 when the customer does not exist (the foreign key backs it up). */
  async create(
    input: { customerid: number; message: string; category?: FeedbackCategory },
    userId: number,
  ): Promise<FeedbackView> {
    await this.customers.assertExists(input.customerid);
    const saved = await this.feedback.insert({
      customerId: input.customerid,
      category: input.category ?? FeedbackCategory.OTHER,
      message: input.message,
      createdBy: userId,
    });
    return FeedbackService.view(saved);
  }

  /** Newest first; a filter on an unknown customer is 404 rather than an empty page that hides a typo. */
  async list(page: number, limit: number, customerId?: number): Promise<Page<FeedbackView>> {
    if (customerId) await this.customers.assertExists(customerId);
    const [rows, total] = await this.feedback.list(page, limit, customerId);
    return { items: rows.map(FeedbackService.view), total, page, limit };
  }
}
