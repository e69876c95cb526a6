import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/** What a customer's feedback is about; OTHER when the operator does not say. */
export const FeedbackCategory = stringEnum('PAYMENT', 'DEVICE', 'SERVICE', 'COMPLAINT', 'OTHER');
export type FeedbackCategory = EnumValue<typeof FeedbackCategory>;

export const FEEDBACK_CATEGORIES = Object.values(FeedbackCategory);
