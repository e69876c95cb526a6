import { Answer, authorized, sleep, startJsonServer } from './http-kit.js';

export const LOCK_ACTIONS = ['LOCK', 'UNLOCK', 'TEMP_UNLOCK', 'PERMANENT_LOCK', 'RELEASE', 'SYNC'] as const;

export interface LockCommand {
  commandid: string;
  imei: string;
  serialnumber: string | null;
  payg: string | null;
  action: (typeof LOCK_ACTIONS)[number];
  nextpaymentdate: string | null;
  unlockuntil: string | null;
}

export interface DeviceState extends LockCommand {
  updatedat: string;
}

export interface LockSimulator {
  url: string;
  /** Every accepted command in arrival order, repeats included. */
  commands: LockCommand[];
  devices: Map<string, DeviceState>;
  received(commandid: string): number;
  /** Times a command id arrived while an earlier copy of it was still being handled. */
  overlaps: number;
  /** Commands being handled right now. */
  inFlightCount(): number;
  setDown(down: boolean): void;
  /** the next n commands answered `status` (503 by default) with `message`, and Retry-After: `retryAfter` seconds when given */
  failNext(n: number, status?: number, retryAfter?: number, message?: string): void;
  setDelay(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A device-lock platform speaking DESIGN part 7: POST /commands with a Bearer key. It keeps each
 * device's last state, drops repeated command ids, and can be down or fail on demand.
 */
export async function startLockSimulator(opts: { port?: number; apiKey?: string; host?: string } = {}): Promise<LockSimulator> {
  const commands: LockCommand[] = [];
  const devices = new Map<string, DeviceState>();
  const seen = new Map<string, number>();
  const inFlight = new Set<string>();
  let down = false;
  let failures = 0;
  let failStatus = 503;
  let failRetryAfter: number | undefined;
  let failMessage = 'failing on demand';
  let delay = 0;
  const sim = {
    commands,
    devices,
    overlaps: 0,
    inFlightCount: () => inFlight.size,
    received: (id: string) => seen.get(id) ?? 0,
    setDown: (value: boolean) => void (down = value),
    failNext(n: number, status = 503, retryAfter?: number, message = 'failing on demand') {
      failures = n;
      failStatus = status;
      failRetryAfter = retryAfter;
      failMessage = message;
    },
    setDelay: (ms: number) => void (delay = ms),
    reset() {
      commands.length = 0;
      devices.clear();
      seen.clear();
      sim.overlaps = 0;
      down = false;
      failures = 0;
      delay = 0;
    },
  };
  const server = await startJsonServer(async (req, body, url) => {
    if (url.pathname.startsWith('/_control/')) {
      const b = (body ?? {}) as { down?: boolean; n?: number; status?: number; retryafter?: number };
      if (req.method === 'POST' && url.pathname === '/_control/down') return [200, { down: (down = Boolean(b.down)) }];
      if (req.method === 'POST' && url.pathname === '/_control/fail-next') return [200, (sim.failNext(Number(b.n ?? 1), Number(b.status ?? 503), b.retryafter === undefined ? undefined : Number(b.retryafter)), { failing: failures })];
      if (req.method === 'POST' && url.pathname === '/_control/reset') return [200, (sim.reset(), { reset: true })];
      if (req.method === 'GET' && url.pathname === '/_control/state') return [200, { down, devices: Object.fromEntries(devices), commands }];
      const device = /^\/_control\/devices\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && device) {
        const state = devices.get(decodeURIComponent(device[1]));
        return state ? [200, state] : [404, { message: 'unknown device' }];
      }
      return [404, { message: 'unknown control route' }];
    }
    const id = (body as { commandid?: unknown } | undefined)?.commandid;
    const tracked = typeof id === 'string' && url.pathname === '/commands';
    if (tracked && inFlight.has(id)) sim.overlaps++;
    if (tracked) inFlight.add(id);
    try {
      return await handle(req, body, url);
    } finally {
      if (tracked) inFlight.delete(id);
    }
  }, opts.port, opts.host);
  async function handle(req: import('node:http').IncomingMessage, body: unknown, url: URL): Promise<Answer> {
    if (delay) await sleep(delay);
    if (!authorized(req, opts.apiKey)) return [401, { message: 'bad api key' }];
    if (down) return [503, { message: 'platform down' }];
    if (failures > 0) {
      failures--;
      return failRetryAfter === undefined ? [failStatus, { message: failMessage }] : [failStatus, { message: failMessage }, { 'retry-after': String(failRetryAfter) }];
    }
    if (req.method !== 'POST' || url.pathname !== '/commands') return [404, { message: 'not found' }];
    const c = body as Partial<LockCommand> | undefined;
    if (!c || typeof c.commandid !== 'string' || typeof c.imei !== 'string' || !LOCK_ACTIONS.includes(c.action as LockCommand['action'])) {
      return [400, { message: 'commandid, imei and a known action are required' }];
    }
    const count = (seen.get(c.commandid) ?? 0) + 1;
    seen.set(c.commandid, count);
    if (count > 1) return [200, { status: 'DUPLICATE', commandid: c.commandid }];
    const command = { commandid: c.commandid, imei: c.imei, serialnumber: c.serialnumber ?? null, payg: c.payg ?? null, action: c.action!, nextpaymentdate: c.nextpaymentdate ?? null, unlockuntil: c.unlockuntil ?? null };
    commands.push(command);
    devices.set(command.imei, { ...command, updatedat: new Date().toISOString() });
    return [200, { status: 'ACCEPTED', commandid: c.commandid }];
  }
  return Object.assign(sim, { url: server.url, close: server.close });
}
