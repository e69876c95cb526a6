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
