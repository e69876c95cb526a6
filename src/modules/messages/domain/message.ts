import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/**
 * Where a message is:
 * - `PENDING`: in the outbox, to be sent (also while the gateway is not configured, down, or quiet hours hold a reminder)
 * - `SENT`: the gateway took it (its messageId and cost are kept); a delivery report will say more
 * - `FAILED`: the gateway refused it or reported it undelivered; `failurereason` says why
 * - `CANCELLED`: a reminder no longer due (paid meanwhile, or the customer opted out) before it went
 */
export const MessageStatus = stringEnum('PENDING', 'SENT', 'DELIVERED', 'FAILED', 'CANCELLED');
export type MessageStatus = EnumValue<typeof MessageStatus>;
export const MESSAGE_STATUSES = Object.values(MessageStatus);

/**
 * The unique key of the event a message tells about: one message per event, whatever repeats it.
 * A payment's receipt has none: it is written once per ledger row by the payment's own statement.
 */
export const eventKey = {
  registered: (customerId: number) => `REGISTERED:${customerId}`,
  reminder: (customerDealId: number, due: string, offset: number) => `REMINDER:${customerDealId}:${due}:${offset}`,
  locked: (customerDealId: number, due: string) => `LOCKED:${customerDealId}:${due}`,
  paidOff: (customerDealId: number) => `PAID_OFF:${customerDealId}`,
};

/** SMS_QUIET_HOURS: reminders are not sent from `start` o'clock until `end` o'clock (business time zone). */
export interface QuietHours {
  start: number;
  end: number;
}

export function parseQuietHours(value: string): QuietHours | null {
  const m = /^(\d{1,2})-(\d{1,2})$/.exec(value.trim());
  if (!m) return null;
  const [start, end] = [Number(m[1]), Number(m[2])];
  return start <= 23 && end <= 23 ? { start, end } : null;
}

/** Equal hours mean no quiet time; a span may wrap midnight (21-7). */
export function isQuiet(hour: number, quiet: QuietHours): boolean {
  if (quiet.start === quiet.end) return false;
  return quiet.start < quiet.end ? hour >= quiet.start && hour < quiet.end : hour >= quiet.start || hour < quiet.end;
}

/** SMS_REMINDER_DAYS: distinct whole days 1–30, largest first ("3,1"). */
export function parseReminderDays(value: string): number[] | null {
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
  const days = [...new Set(parts.map(Number))].sort((a, b) => b - a);
  return days.every((d) => d >= 1 && d <= 30) && days.length > 0 ? days : null;
}

/**
 * Which reminder a deal due in `daysLeft` days gets: the offset d with daysLeft in (next smaller
 * offset, d]. On the day itself that is d; after a missed run (the service was down) the reminder
 * still goes, a day late, instead of never; and a deal that becomes due within 1 day gets only the
 * 1-day reminder, not every larger one at once.
 */
export function reminderOffsetFor(daysLeft: number, offsets: readonly number[]): number | null {
  const sorted = [...offsets].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    const lower = i === 0 ? 0 : sorted[i - 1];
    if (daysLeft > lower && daysLeft <= sorted[i]) return sorted[i];
  }
  return null;
}

const BACKOFF_START_MS = 5_000;
const BACKOFF_CAP_MS = 3_600_000;
/** A message the gateway could not take for this long is failed: a receipt two days late misleads more than it helps. */
export const GIVE_UP_AFTER_MS = 48 * 3_600_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** Math.max(0, attempts - 1));
}

/** A delivery report's status (Africa's Talking: Sent, Submitted, Buffered are on the way; Success, Rejected, Failed are final). */
export function statusOfReport(status: string): typeof MessageStatus.DELIVERED | typeof MessageStatus.FAILED | null {
  if (status === 'Success') return MessageStatus.DELIVERED;
  if (status === 'Failed' || status === 'Rejected' || status === 'AbsentSubscriber' || status === 'Expired') return MessageStatus.FAILED;
  return null;
}
