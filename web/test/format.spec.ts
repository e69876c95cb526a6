import { businessToday, formatDate, formatDateTime, formatMoney, formatPercent } from '../src/format';

/** Intl writes some spaces as U+202F or U+00A0; the tests compare words, not space characters. */
const plain = (s: string) => s.replace(/\s/g, ' ');
const kampala = { currency: 'UGX', timezone: 'Africa/Kampala', locale: 'en-US' };

describe('web client formatting (Intl, CURRENCY, business time zone)', () => {
  it('writes amounts in the configured currency with its own minor units', () => {
    expect(plain(formatMoney(45000, kampala))).toBe('UGX 45,000');
    expect(plain(formatMoney(1234.5, { ...kampala, currency: 'KES' }))).toBe('KES 1,234.50');
    expect(plain(formatMoney(0, kampala))).toBe('UGX 0');
    // never rounded: a currency without minor units still shows the cents an amount has, as the SMS does
    expect(plain(formatMoney(487654.33, kampala))).toBe('UGX 487,654.33');
    expect(plain(formatMoney(0.5, kampala))).toBe('UGX 0.50');
    expect(plain(formatMoney(9770004.83, kampala))).toBe('UGX 9,770,004.83');
    expect(plain(formatMoney(-2.51, kampala))).toBe('-UGX 2.51');
    expect(plain(formatMoney(999999999.99, kampala))).toBe('UGX 999,999,999.99');
    expect(formatMoney(null, kampala)).toBe('—');
    expect(formatMoney(undefined, kampala)).toBe('—');
  });

  it('shows a business date as the calendar day written, whatever the zone', () => {
    expect(formatDate('2026-02-14', { locale: 'en-US' })).toBe('Feb 14, 2026');
    expect(formatDate('2026-12-31', { locale: 'en-US' })).toBe('Dec 31, 2026');
    expect(formatDate(null)).toBe('—');
  });

  it('shows an instant in the business time zone, not the machine’s', () => {
    // 22:30 UTC is already the next day in Kampala (UTC+3) and still the same day in Lima (UTC−5)
    expect(plain(formatDateTime('2026-01-15T22:30:00Z', kampala))).toBe('Jan 16, 2026, 1:30 AM');
    expect(plain(formatDateTime('2026-01-15T22:30:00Z', { ...kampala, timezone: 'America/Lima' }))).toBe('Jan 15, 2026, 5:30 PM');
    expect(formatDateTime(null, kampala)).toBe('—');
  });

  it('knows today’s business day from the zone', () => {
    expect(businessToday('Africa/Kampala', new Date('2026-01-15T21:00:00Z'))).toBe('2026-01-16');
    expect(businessToday('Africa/Kampala', new Date('2026-01-15T20:59:59Z'))).toBe('2026-01-15');
    expect(businessToday('America/Lima', new Date('2026-01-16T04:00:00Z'))).toBe('2026-01-15');
  });

  it('writes ratios as percentages with one decimal at most', () => {
    expect(formatPercent(0.1234, { locale: 'en-US' })).toBe('12.3%');
    expect(formatPercent(1, { locale: 'en-US' })).toBe('100%');
    expect(formatPercent(null)).toBe('—');
  });
});
