import { invalid } from '../errors/domain-error.js';
import { daysBetween } from './business-date.js';

/** The longest range of days a request may ask for (DESIGN part 4). */
export const MAX_RANGE_DAYS = 31;

/** startdate ≤ enddate and at most MAX_RANGE_DAYS days, both ends included (400 otherwise). */
export function checkDateRange(startdate: string, enddate: string): void {
  if (startdate > enddate) throw invalid('BAD_DATE_RANGE', 'startdate must not be after enddate');
  if (daysBetween(startdate, enddate) + 1 > MAX_RANGE_DAYS)
    throw invalid('BAD_DATE_RANGE', `the range must not span more than ${MAX_RANGE_DAYS} days`);
}
