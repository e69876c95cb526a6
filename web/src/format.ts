/** Amounts and dates as people read them, with Intl, in the service's CURRENCY and BUSINESS_TIMEZONE. */
export interface FormatSettings {
  currency: string;
  timezone: string;
  locale?: string;
}

/**
 * An amount as the API gives it, to the cent: a currency written without minor units (UGX) still
 * shows cents when there are some, as the customer's SMS does, so no figure on screen is rounded.
 */
export function formatMoney(amount: number | null | undefined, s: FormatSettings): string {
  if (amount === null || amount === undefined) return '—';
  const cents = Math.round(amount * 100) % 100 !== 0;
  return new Intl.NumberFormat(s.locale, { style: 'currency', currency: s.currency, ...(cents ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : {}) }).format(amount);
}

/** A business date `YYYY-MM-DD` is a calendar day, not an instant: shown as written, whatever the zone. */
export function formatDate(date: string | null | undefined, s: Pick<FormatSettings, 'locale'> = {}): string {
  if (!date) return '—';
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(s.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** An instant (ISO 8601) shown in the business time zone. */
export function formatDateTime(iso: string | null | undefined, s: FormatSettings): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(s.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: s.timezone }).format(new Date(iso));
}

export function formatPercent(ratio: number | null | undefined, s: Pick<FormatSettings, 'locale'> = {}): string {
  if (ratio === null || ratio === undefined) return '—';
  return new Intl.NumberFormat(s.locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

/** Today's business day (YYYY-MM-DD) in the time zone. */
export function businessToday(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
