import { asOneLine, cutText } from '../identifiers/characters.js';

/** How long another platform (mobile money, device lock, SMS gateway) has to answer. */
const TIMEOUT_MS = 10_000;

/** The platform did not answer: `message` is what an operator reads ("no answer within 10 s", "unreachable: …"). */
export class PlatformUnreachable extends Error {
  readonly timedOut: boolean;

  constructor(cause: Error) {
    const timedOut = cause.name === 'TimeoutError';
    super(timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : `unreachable: ${cause.message}`);
    this.timedOut = timedOut;
  }
}

/**
 * A request to another platform: a 10 s time-out, and redirects refused (a redirect is not the
 * platform answering, and must not carry its key elsewhere). Resolves to whatever HTTP answer came;
 * rejects with PlatformUnreachable when none did.
 */
export async function callPlatform(url: string, init: Omit<RequestInit, 'redirect' | 'signal'>): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new PlatformUnreachable(error as Error);
  }
}

/** What another platform said (a refusal's reason, its message), as one line of at most 200 characters this service can store and show. */
export const platformSaid = (text: string): string => cutText(asOneLine(text), 200);

/** The longest wait a platform's Retry-After is followed for: past it, the worker's own backoff decides. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/** An HTTP date as senders must write it (RFC 9110 IMF-fixdate): "Tue, 10 Mar 2026 08:05:00 GMT". */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * How long a platform asked to be left alone (a 429 or 503 with Retry-After: seconds, or an HTTP
 * date), in ms from `now`, at most RETRY_AFTER_MAX_MS; null when it asked nothing readable.
 */
export function retryAfterMs(response: Response, now = Date.now()): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : HTTP_DATE.test(value) ? Date.parse(value) - now : NaN;
  return Number.isNaN(ms) ? null : Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
}

/** A retry's delay: the worker's backoff, or longer when the platform asked for longer (retryAfterMs). */
export function retryDelayAsked(backoffMs: number, askedMs: number | null | undefined): number {
  return Math.max(backoffMs, askedMs ?? 0);
}

/** Where another platform is and the key it wants, as configured; without an address it is not configured. */
export interface PlatformSettings {
  url?: string;
  apiKey?: string;
}

/**
 * The HTTP side of an adapter to another platform (mobile money, device lock, SMS gateway): it is
 * configured once its address is set, and `call` is callPlatform on a path of that address.
 */
export abstract class HttpPlatform<S extends PlatformSettings = PlatformSettings> {
  constructor(protected readonly settings: S) {}

  get configured(): boolean {
    return Boolean(this.settings.url);
  }

  /** callPlatform on `path` below the platform's address; ask only once `configured`. */
  protected call(path: string, init: Omit<RequestInit, 'redirect' | 'signal'>): Promise<Response> {
    return callPlatform(`${this.settings.url}${path}`, init);
  }
}
