import { authorized, sleep, startJsonServer } from './http-kit.js';

export interface SimTransaction {
  id: string;
  amount: number;
  tag: string;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  timestamp: string;
}

export interface ProviderSimulator {
  url: string;
  transactions: Map<string, SimTransaction>;
  /** API calls received (not control calls). */
  requests: number;
  addTransaction(t: Omit<SimTransaction, 'timestamp'> & { timestamp?: string }): SimTransaction;
  setDown(down: boolean): void;
  setDelay(ms: number): void;
  reset(): void;
  postCallback(serviceUrl: string, token: string, t: { id: string; amount: number; tag: string }): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const isDate = (s: string | null): s is string => Boolean(s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)));

/**
 * A mobile-money provider speaking DESIGN part 6: GET /transactions?startdate&enddate and
 * GET /transactions/{id}, Bearer key; plus /_control routes to drive it from other processes.
 */
export async function startProviderSimulator(opts: { port?: number; apiKey?: string; host?: string } = {}): Promise<ProviderSimulator> {
  const transactions = new Map<string, SimTransaction>();
  let down = false;
  let delay = 0;
  const sim = {
    transactions,
    requests: 0,
    addTransaction(t: Omit<SimTransaction, 'timestamp'> & { timestamp?: string }) {
      const full = { ...t, timestamp: t.timestamp ?? new Date().toISOString() };
      transactions.set(full.id, full);
      return full;
    },
    setDown: (value: boolean) => void (down = value),
    setDelay: (ms: number) => void (delay = ms),
    reset() {
      transactions.clear();
      down = false;
      delay = 0;
      sim.requests = 0;
    },
    async postCallback(serviceUrl: string, token: string, t: { id: string; amount: number; tag: string }) {
      const res = await fetch(`${serviceUrl}/finance/amlogs/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': token },
        body: JSON.stringify({ transaction: t }),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
  };
  const server = await startJsonServer(async (req, body, url) => {
    if (url.pathname.startsWith('/_control/')) {
      if (req.method === 'POST' && url.pathname === '/_control/transactions') return [201, sim.addTransaction(body as SimTransaction)];
      if (req.method === 'POST' && url.pathname === '/_control/down') return [200, { down: (down = Boolean((body as { down?: boolean })?.down)) }];
      if (req.method === 'POST' && url.pathname === '/_control/reset') return [200, (sim.reset(), { reset: true })];
      if (req.method === 'GET' && url.pathname === '/_control/state') return [200, { down, transactions: [...transactions.values()], requests: sim.requests }];
      return [404, { message: 'unknown control route' }];
    }
    sim.requests++;
    if (delay) await sleep(delay);
    if (!authorized(req, opts.apiKey)) return [401, { message: 'bad api key' }];
    if (down) return [503, { message: 'provider down' }];
    if (req.method !== 'GET') return [405, { message: 'method not allowed' }];
    if (url.pathname === '/transactions') {
      const start = url.searchParams.get('startdate');
      const end = url.searchParams.get('enddate');
      if (!isDate(start) || !isDate(end)) return [400, { message: 'startdate and enddate must be YYYY-MM-DD' }];
      const list = [...transactions.values()].filter((t) => t.timestamp.slice(0, 10) >= start && t.timestamp.slice(0, 10) <= end);
      return [200, { transactions: list }];
    }
    const one = /^\/transactions\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const t = transactions.get(decodeURIComponent(one[1]));
      return t ? [200, t] : [404, { message: 'transaction not found' }];
    }
    return [404, { message: 'not found' }];
  }, opts.port, opts.host);
  return Object.assign(sim, { url: server.url, close: server.close });
}
