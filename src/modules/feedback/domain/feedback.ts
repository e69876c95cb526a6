/** What a customer's feedback is about; OTHER when the operator does not say. */
export enum FeedbackCategory {
  PAYMENT = 'PAYMENT',
  DEVICE = 'DEVICE',
  SERVICE = 'SERVICE',
  COMPLAINT = 'COMPLAINT',
  OTHER = 'OTHER',
}

export const FEEDBACK_CATEGORIES = Object.values(FeedbackCategory);
