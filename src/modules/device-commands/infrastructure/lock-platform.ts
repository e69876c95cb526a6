import { HttpPlatform, platformSaid, retryAfterMs } from '../../../common/http/outbound.js';
import { DeviceAction } from '../domain/device-command.js';

export interface PlatformCommand {
  commandid: string;
  imei: string;
  serialnumber: string | null;
  payg: string | null;
  action: DeviceAction;
  nextpaymentdate: string | null;
  unlockuntil: string | null;
}

export class LockPlatformError extends Error {
  /** How long the platform asked to be left alone (Retry-After), in ms; null when it did not say. */
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The device-lock platform as this service uses it (DESIGN part 7). */
export abstract class LockPlatform {
  abstract readonly configured: boolean;
  /** Resolves when the platform took the command (2xx); throws LockPlatformError otherwise. */
  abstract send(command: PlatformCommand): Promise<void>;
}

/** HTTP adapter: POST {DEVICE_LOCK_API_URL}/commands, Bearer key, 10 s timeout, redirects refused. */
export class HttpLockPlatform extends HttpPlatform implements LockPlatform {
  async send(command: PlatformCommand): Promise<void> {
    if (!this.configured) throw new LockPlatformError('device-lock platform not configured');
    const response = await this.call('/commands', {
      method: 'POST',
      headers: { authorization: `Bearer ${this.settings.apiKey ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify(command),
    }).catch((error: Error) => {
      throw new LockPlatformError(error.message);
    });
    if (response.ok || response.status >= 500) {
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) throw new LockPlatformError(`HTTP ${response.status}`, retryAfterMs(response));
      return;
    }
    // a refusal (4xx) is retried like any failure (DESIGN part 7), with the platform's reason shown on the command
    const reason = refusalReason(await response.text().catch(() => ''));
    throw new LockPlatformError(reason ? `HTTP ${response.status}: ${reason}` : `HTTP ${response.status}`, retryAfterMs(response));
  }
}

/** What a refusal's body says: its `message` (or `error`) when it is JSON, else its text (platformSaid). */
function refusalReason(body: string): string {
  let reason = body;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown } | null;
    const said = parsed?.message ?? parsed?.error;
    if (typeof said === 'string') reason = said;
  } catch {
    // not JSON: the text as it came
  }
  return platformSaid(reason);
}
