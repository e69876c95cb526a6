import { HttpPlatform, retryAfterMs } from '../../../common/http/outbound.js';
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
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) throw new LockPlatformError(`HTTP ${response.status}`, retryAfterMs(response));
  }
}
