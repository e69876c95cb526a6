import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Answer, sleep, startJsonServer } from './http-kit.js';

export interface SimulatedSms {
  messageId: string;
  username: string;
  to: string;
  message: string;
  from: string | null;
  /** the delivery report sent back, once sent */
  report: { status: 'Success' | 'Failed'; failureReason?: string; answer?: number } | null;
}

export interface SmsSimulator {
  url: string;
  /** every message taken, in arrival order */
  messages: SimulatedSms[];
  sentTo(number: string): SimulatedSms[];
  /** where delivery reports go (the service's /sms/delivery-reports?key=…); none: no reports */
  setCallbackUrl(url: string | null): void;
  setDown(down: boolean): void;
  /** a slow gateway: each send is taken and answered this long (ms) after it arrives, sends side by side; 0: at once */
  setDelay(ms: number): void;
  /** the next n sends answered `status` (500 by default), with Retry-After: `retryAfter` seconds when given */
  failNext(n: number, status?: number, retryAfter?: number): void;
  /** numbers answered 403 InvalidPhoneNumber */
  reject(number: string): void;
  /** the sender ids the account may use (null: any): another `from` is refused as a whole, as Africa's Talking does (InvalidSenderId, no recipients) */
  setSenderIds(ids: string[] | null): void;
  /** numbers whose delivery report says Failed */
  undeliverable(number: string, reason?: string): void;
  /** reports wait this long (ms); `delayedEvery` n-th report waits `delayedMs` more */
  setReportDelay(ms: number, delayedEvery?: number, delayedMs?: number): void;
  /** resolves when every report due so far has been posted */
  reportsSettled(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const COST = 'UGX 30.0000';
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * An SMS gateway speaking Africa's Talking's API: POST /version1/messaging (form or JSON: username,
 * to, message, from; header apiKey) answers 201 with SMSMessageData.Recipients, and a delivery
 * report (form: id, status, phoneNumber, networkCode, failureReason, retryCount) is posted to the
 * callback URL a little later, some later still, some failed. /_control/* sets it up (down, a delay,
 * failures, refused numbers).
 */
export async function startSmsSimulator(opts: { port?: number; apiKey?: string; username?: string; host?: string; callbackUrl?: string; failRate?: number } = {}): Promise<SmsSimulator> {
  const messages: SimulatedSms[] = [];
  const rejected = new Set<string>();
  const failing = new Map<string, string>();
  const inFlight = new Set<Promise<void>>();
  let callbackUrl = opts.callbackUrl ?? null;
  let down = false;
  let delayMs = 0;
  let failures = 0;
  let failStatus = 500;
  let failRetryAfter: number | undefined;
  let reportDelay = 50;
  let delayedEvery = 5;
  let delayedMs = 1000;
  let reports = 0;
  let senderIds: Set<string> | null = null;

  const postReport = (sms: SimulatedSms, wait: number) => {
    const task = (async () => {
      await sleep(wait);
      if (!callbackUrl || !sms.report) return;
      const form = new URLSearchParams({ id: sms.messageId, status: sms.report.status, phoneNumber: sms.to, networkCode: '64101', retryCount: '0' });
      if (sms.report.failureReason) form.set('failureReason', sms.report.failureReason);
      try {
        const res = await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
        sms.report.answer = res.status;
        await res.body?.cancel();
      } catch {
        sms.report.answer = 0;
      }
    })();
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };

  const send = (req: IncomingMessage, body: unknown): Answer => {
    if (opts.apiKey && req.headers.apikey !== opts.apiKey) return [401, 'The supplied authentication is invalid'];
    if (down) return [503, { message: 'gateway down' }];
    if (failures > 0) {
      failures--;
      return failRetryAfter === undefined ? [failStatus, { message: 'failing on demand' }] : [failStatus, { message: 'failing on demand' }, { 'retry-after': String(failRetryAfter) }];
    }
    const b = (body ?? {}) as Record<string, unknown>;
    if (typeof b.username !== 'string' || typeof b.to !== 'string' || typeof b.message !== 'string' || !b.message) return [400, 'username, to and message are required'];
    if (opts.username && b.username !== opts.username) return [401, 'The supplied authentication is invalid'];
    if (senderIds && typeof b.from === 'string' && !senderIds.has(b.from)) return [201, { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } }];
    const recipients = b.to.split(',').map((to) => {
      const number = to.trim();
      if (!E164.test(number) || rejected.has(number)) return { statusCode: 403, number, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' };
      const sms: SimulatedSms = { messageId: `ATXid_${randomUUID()}`, username: b.username as string, to: number, message: b.message as string, from: typeof b.from === 'string' ? b.from : null, report: null };
      const failed = failing.get(number) ?? (opts.failRate && Math.random() < opts.failRate ? 'DeliveryFailure' : undefined);
      sms.report = failed ? { status: 'Failed', failureReason: failed } : { status: 'Success' };
      messages.push(sms);
      reports++;
      postReport(sms, reportDelay + (delayedEvery > 0 && reports % delayedEvery === 0 ? delayedMs : 0));
      return { statusCode: 101, number, status: 'Success', cost: COST, messageId: sms.messageId };
    });
    const taken = recipients.filter((r) => r.statusCode === 101).length;
    return [201, { SMSMessageData: { Message: `Sent to ${taken}/${recipients.length} Total Cost: ${COST}`, Recipients: recipients } }];
  };

  const sim = {
    messages,
    sentTo: (number: string) => messages.filter((m) => m.to === number),
    setCallbackUrl: (url: string | null) => void (callbackUrl = url),
    setDown: (value: boolean) => void (down = value),
    setDelay: (ms: number) => void (delayMs = ms),
    failNext(n: number, status = 500, retryAfter?: number) {
      failures = n;
      failStatus = status;
      failRetryAfter = retryAfter;
    },
    reject: (number: string) => void rejected.add(number),
    setSenderIds: (ids: string[] | null) => void (senderIds = ids && new Set(ids)),
    undeliverable: (number: string, reason = 'UserIsInactive') => void failing.set(number, reason),
    setReportDelay(ms: number, every = 0, more = 0) {
      reportDelay = ms;
      delayedEvery = every;
      delayedMs = more;
    },
    async reportsSettled() {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    reset() {
      messages.length = 0;
      rejected.clear();
      failing.clear();
      senderIds = null;
      down = false;
      delayMs = 0;
      failures = 0;
    },
  };

  const server = await startJsonServer(
    async (req, body, url) => {
      if (url.pathname.startsWith('/_control/')) {
        const b = (body ?? {}) as { down?: boolean; ms?: number; n?: number; status?: number; number?: string; reason?: string; url?: string | null };
        if (req.method === 'POST' && url.pathname === '/_control/down') return [200, { down: (down = Boolean(b.down)) }];
        if (req.method === 'POST' && url.pathname === '/_control/delay') return [200, { delayMs: (delayMs = Math.max(0, Number(b.ms ?? 0) || 0)) }];
        if (req.method === 'POST' && url.pathname === '/_control/fail-next') return [200, (sim.failNext(Number(b.n ?? 1), Number(b.status ?? 500)), { failing: failures })];
        if (req.method === 'POST' && url.pathname === '/_control/reject' && b.number) return [200, (sim.reject(b.number), { rejected: [...rejected] })];
        if (req.method === 'POST' && url.pathname === '/_control/undeliverable' && b.number) return [200, (sim.undeliverable(b.number, b.reason), { undeliverable: Object.fromEntries(failing) })];
        if (req.method === 'POST' && url.pathname === '/_control/callback') return [200, (sim.setCallbackUrl(b.url ?? null), { callbackUrl })];
        if (req.method === 'POST' && url.pathname === '/_control/reset') return [200, (sim.reset(), { reset: true })];
        if (req.method === 'GET' && url.pathname === '/_control/state') return [200, { down, delayMs, callbackUrl, messages }];
        return [404, { message: 'unknown control route' }];
      }
      if (req.method === 'POST' && url.pathname === '/version1/messaging') {
        if (delayMs > 0) await sleep(delayMs);
        return send(req, body);
      }
      return [404, { message: 'not found' }];
    },
    opts.port,
    opts.host,
  );
  return Object.assign(sim, {
    url: server.url,
    close: async () => {
      callbackUrl = null;
      await server.close();
    },
  });
}
