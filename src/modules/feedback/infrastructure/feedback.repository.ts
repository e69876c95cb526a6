import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedbackEntity } from './feedback.entity.js';

@Injectable()
export class FeedbackRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo() {
    return this.dataSource.getRepository(FeedbackEntity);
  }

  insert(
    feedback: Pick<FeedbackEntity, 'customerId' | 'category' | 'message' | 'createdBy'>,
  ): Promise<FeedbackEntity> {
    return this.repo().save(this.repo().create(feedback));
  }

  list(page: number, limit: number, customerId?: number): Promise<[FeedbackEntity[], number]> {
    return this.repo().findAndCount({
      where: customerId ? { customerId } : {},
      order: { id: 'DESC' },
      skip: (page - 1) * limit,
      take: limit,
    });
  }
}
