import type { AppConfig } from '../../../config/app-config.js';
import { HttpPlatform, platformSaid, retryAfterMs } from '../../../common/http/outbound.js';

export interface OutgoingSms {
  /** E.164 */
  to: string;
  text: string;
}

/**
 * What became of one send: SENT (the gateway took it; its id comes back in delivery reports),
 * REJECTED (final: the number or the message is refused, retrying cannot help), RETRY (the gateway
 * is down, slow or out of credit: try again later; `retryAfterMs`: not before, as the gateway asked).
 */
export type SendOutcome = { kind: 'SENT'; messageId: string; cost: string | null } | { kind: 'REJECTED'; reason: string } | { kind: 'RETRY'; reason: string; retryAfterMs?: number | null };

/** The SMS gateway as this service uses it: another gateway is one more class. */
export abstract class SmsGateway {
  abstract readonly configured: boolean;
  abstract send(sms: OutgoingSms): Promise<SendOutcome>;
}


/**
 * Per-recipient status codes of Africa's Talking's SMS API: 100 Processed, 101 Sent, 102 Queued are
 * taken; 401 RiskHold, 405 InsufficientBalance, 500 InternalServerError and 501 GatewayError may
 * pass later, and 402 InvalidSenderId is a setting (SMS_SENDER_ID, or a sender id not approved yet)
 * that fails every message alike until an operator fixes it; the others (403 InvalidPhoneNumber,
 * 404 UnsupportedNumberType, 406 UserInBlacklist, 407 CouldNotRoute, 409 DoNotDisturbRejection,
 * 502 RejectedByGateway) are final: this number, or this message, is refused.
 */
const TAKEN = new Set([100, 101, 102]);

/**
 * HTTP answers that say nothing against the message: a bad key or username (401, 403), or an address
 * where no gateway takes messages (404, 405: SMS_API_URL), would fail every message alike, so they
 * wait for an operator to fix the settings; a time-out (408), a conflict (409), too early (425) or too
 * many (429) pass later. Other 4xx answers refuse this message; 5xx answers are retried.
 */
const WAIT = new Set([401, 403, 404, 405, 408, 409, 425, 429]);
const RETRYABLE = new Set([401, 402, 405, 500, 501]);

interface AtRecipient {
  statusCode?: number;
  status?: string;
  messageId?: string;
  cost?: string;
  number?: string;
}

/**
 * Africa's Talking: POST {SMS_API_URL}/version1/messaging, form-encoded `username`, `to`, `message`
 * and `from` (the sender id, when set), headers `apiKey` and `Accept: application/json`; the answer
 * is `{SMSMessageData: {Message, Recipients: [{statusCode, number, status, cost, messageId}]}}`.
 * SMS_API_URL is https://api.africastalking.com (https://api.sandbox.africastalking.com with the
 * username `sandbox`), or the simulator's address.
 */
export class AfricasTalkingGateway extends HttpPlatform<AppConfig['sms']> implements SmsGateway {
  async send(sms: OutgoingSms): Promise<SendOutcome> {
    if (!this.configured) return { kind: 'RETRY', reason: 'SMS gateway not configured' };
    const { username, apiKey, senderId } = this.settings;
    const form = new URLSearchParams({ username: username ?? '', to: sms.to, message: sms.text });
    if (senderId) form.set('from', senderId);
    let response: Response;
    try {
      response = await this.call('/version1/messaging', {
        method: 'POST',
        headers: { apiKey: apiKey ?? '', accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    } catch (error) {
      return { kind: 'RETRY', reason: (error as Error).message };
    }
    const body = await response.text().catch(() => '');
    if (WAIT.has(response.status) || response.status >= 500) return { kind: 'RETRY', reason: `HTTP ${response.status}`, retryAfterMs: retryAfterMs(response) };
    if (!response.ok) return { kind: 'REJECTED', reason: `HTTP ${response.status}: ${platformSaid(body)}` };
    let data: { Recipients?: AtRecipient[]; Message?: string } | undefined;
    try {
      data = (JSON.parse(body) as { SMSMessageData?: { Recipients?: AtRecipient[]; Message?: string } }).SMSMessageData;
    } catch {
      return { kind: 'RETRY', reason: 'unreadable answer from the gateway' };
    }
    const recipient = data?.Recipients?.[0];
    // no recipient: the request was refused as a whole ("InvalidSenderId"), which says nothing against this number
    if (!recipient || typeof recipient.statusCode !== 'number') {
      const message = typeof data?.Message === 'string' ? platformSaid(data.Message) : '';
      return { kind: 'RETRY', reason: message || `no recipient in the answer: ${platformSaid(body)}` };
    }
    const reason = platformSaid(`${recipient.statusCode} ${typeof recipient.status === 'string' ? recipient.status : ''}`);
    if (TAKEN.has(recipient.statusCode) && recipient.messageId) return { kind: 'SENT', messageId: recipient.messageId, cost: recipient.cost ?? null };
    if (RETRYABLE.has(recipient.statusCode)) return { kind: 'RETRY', reason };
    return { kind: 'REJECTED', reason };
  }
}
