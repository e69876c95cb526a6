import fc from 'fast-check';
import { addDays, businessDay, daysBetween, isValidDate } from './business-date.js';

describe('business dates', () => {
  it('takes the calendar day in the business time zone', () => {
    const instant = new Date('2026-03-10T22:30:00Z');
    expect(businessDay(instant, 'UTC')).toBe('2026-03-10');
    expect(businessDay(instant, 'Africa/Kampala')).toBe('2026-03-11');
    expect(businessDay(instant, 'America/New_York')).toBe('2026-03-10');
  });

  it('turns the day at local midnight to the millisecond, in any order of asking', () => {
    // Kampala is UTC+3: its midnight is 21:00 UTC
    const instants = ['2026-03-10T20:59:59.999Z', '2026-03-10T21:00:00.000Z', '2026-03-10T21:00:59.999Z', '2026-03-10T20:59:00.000Z', '2026-03-10T21:00:30.000Z'];
    const expected = ['2026-03-10', '2026-03-11', '2026-03-11', '2026-03-10', '2026-03-11'];
    expect(instants.map((i) => businessDay(new Date(i), 'Africa/Kampala'))).toEqual(expected);
    fc.assert(
      // up to 8 instants within 16 hours of a UTC midnight from 2000 to 2100, so around every zone's local midnight,
      // each 1 ms before a whole or a half minute: asked in a row, each after the cache holds another minute's day
      fc.property(
        fc.integer({ min: 10_957, max: 47_482 }),
        fc.constantFrom('UTC', 'Africa/Kampala', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'),
        fc.array(fc.integer({ min: -16 * 3_600_000, max: 16 * 3_600_000 }).map((ms) => ms - (ms % 60_000) + (ms % 3) * 30_000 - 1), { minLength: 1, maxLength: 8 }),
        (day, zone, offsets) => {
          for (const offset of offsets) {
            const at = new Date(day * 86_400_000 + offset);
            const fresh = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
            expect(businessDay(at, zone)).toBe(fresh);
          }
        },
      ),
    );
  });

  it('adds days across month ends, leap days and DST changes', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-03-10', -10)).toBe('2026-02-28');
  });

  it('refuses dates that are not on the calendar', () => {
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
    expect(isValidDate('2028-02-29')).toBe(true);
    // nor before 1900: a range ending on 0001-01-01 began in year 0, which PostgreSQL has not
    expect(isValidDate('0001-01-01')).toBe(false);
    expect(isValidDate('1899-12-31')).toBe(false);
    expect(isValidDate('1900-01-01')).toBe(true);
    expect(isValidDate('9999-12-31')).toBe(true);
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });

  it('keeps addDays and daysBetween inverse, and order by string comparison', () => {
    const day = fc.integer({ min: 0, max: 40_000 }).map((n) => addDays('2000-01-01', n));
    fc.assert(
      fc.property(day, fc.integer({ min: -5000, max: 5000 }), (d, n) => {
        const later = addDays(d, n);
        expect(daysBetween(d, later)).toBe(n);
        // the service compares business dates as strings (nextpaymentdate > today)
        expect([d < later, d === later]).toEqual([n > 0, n === 0]);
      }),
    );
  });
});
