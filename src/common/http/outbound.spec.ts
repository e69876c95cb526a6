import { RETRY_AFTER_MAX_MS, retryAfterMs, retryDelayAsked } from './outbound.js';

const answer = (retryAfter?: string) => new Response(null, { status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

describe('Retry-After of another platform', () => {
  it('reads seconds or an HTTP date, up to an hour, and nothing from what it cannot read', () => {
    const now = Date.parse('2026-03-10T08:00:00Z');
    expect(retryAfterMs(answer('120'), now)).toBe(120_000);
    expect(retryAfterMs(answer('Tue, 10 Mar 2026 08:05:00 GMT'), now)).toBe(300_000);
    expect(retryAfterMs(answer('Tue, 10 Mar 2026 07:55:00 GMT'), now)).toBe(0);
    expect(retryAfterMs(answer('86400'), now)).toBe(RETRY_AFTER_MAX_MS);
    for (const unreadable of [undefined, '', 'soon', '-5', '1.5']) expect(retryAfterMs(answer(unreadable), now)).toBeNull();
  });

  it('waits the longer of the backoff and what the platform asked', () => {
    expect(retryDelayAsked(1_000, 120_000)).toBe(120_000);
    expect(retryDelayAsked(4_000, 0)).toBe(4_000);
    expect(retryDelayAsked(4_000, null)).toBe(4_000);
  });
});
