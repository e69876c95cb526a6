import { ApiProperty } from '@nestjs/swagger';
import { CustomerIdRequest } from '../../../common/http/customer-request.js';
import { PageQuery } from '../../../common/http/pagination.js';
import { EnumField, QueryIdField, TextField } from '../../../common/validation/fields.js';
import { FEEDBACK_CATEGORIES, FeedbackCategory } from '../domain/feedback.js';
import type { FeedbackView } from '../application/feedback.service.js';

export class CreateFeedbackRequest extends CustomerIdRequest {
  @TextField({ example: 'The phone does not unlock after paying by mobile money.' })
  message: string;

  @EnumField(FEEDBACK_CATEGORIES, { optional: true, example: 'DEVICE', description: 'OTHER when absent.' })
  category?: FeedbackCategory;
}

export class FeedbackListQuery extends PageQuery {
  @QueryIdField({ optional: true, description: 'Only this customer’s feedback (404 when the customer does not exist).', example: 42 })
  customerid?: number;
}

export class FeedbackResponse implements FeedbackView {
  @ApiProperty({ type: 'integer', example: 5 }) feedbackid: number;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ enum: FEEDBACK_CATEGORIES, example: 'DEVICE' }) category: FeedbackCategory;
  @ApiProperty({ example: 'The phone does not unlock after paying by mobile money.' }) message: string;
  @ApiProperty({ type: 'integer', example: 3, nullable: true }) createdby: number | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:12:00.000Z' }) createdat: string;
}

