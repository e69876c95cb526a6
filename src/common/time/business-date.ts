/** Business dates are calendar days written 'YYYY-MM-DD'; arithmetic on them is done in UTC so no DST shifts a day. */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const days = new Map<string, { formatter: Intl.DateTimeFormat; minute: number; day: string }>();

/**
 * The calendar day of `now` in the IANA time zone `timeZone`. Every UTC offset in use since 1972 is a
 * whole number of minutes, so local midnight falls on a whole UTC minute and the day found for one
 * minute holds for all of it: each zone keeps the last minute it was asked about (Intl's formatting
 * costs more than the rest of a payment's arithmetic).
 */
export function businessDay(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  let zone = days.get(timeZone);
  if (!zone) {
    zone = { formatter: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), minute: NaN, day: '' };
    days.set(timeZone, zone);
  }
  if (zone.minute !== minute) {
    zone.day = zone.formatter.format(now);
    zone.minute = minute;
  }
  return zone.day;
}

/** The first business day any date may name: a range's default start (30 days before its end) stays a date PostgreSQL can hold. */
export const FIRST_DATE = '1900-01-01';

/** A real calendar day written YYYY-MM-DD, from FIRST_DATE on. */
export function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < FIRST_DATE) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const toUtc = (date: string): number => {
  if (!isValidDate(date)) throw new RangeError(`not a calendar date: ${date}`);
  return Date.parse(`${date}T00:00:00Z`);
};

export function addDays(date: string, days: number): string {
  return new Date(toUtc(date) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}
