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
