import { HttpPlatform, PlatformUnreachable } from '../../../common/http/outbound.js';
import { providerFailed, providerNotConfigured, ProviderTransaction } from '../domain/mobile-money.js';

/** The mobile-money provider as this service uses it (DESIGN part 6). */
export abstract class MobileMoneyProvider {
  abstract readonly configured: boolean;
  /** Every transaction between two dates, inclusive. */
  abstract listTransactions(startdate: string, enddate: string): Promise<ProviderTransaction[]>;
  /** One transaction, or null when the provider does not know it. */
  abstract getTransaction(id: string): Promise<ProviderTransaction | null>;
}

const STATUSES = new Set(['SUCCESS', 'FAILED', 'PENDING']);

function parseTransaction(value: unknown): ProviderTransaction {
  const t = value as Record<string, unknown> | null;
  // trimmed as the callback's IdentifierField trims it: one transaction has one id whichever way it arrives
  const id = typeof t?.id === 'string' ? t.id.trim() : undefined;
  if (
    !t ||
    id === undefined ||
    id.length === 0 ||
    id.length > 255 ||
    typeof t.amount !== 'number' ||
    !Number.isFinite(t.amount) ||
    (t.tag != null && (typeof t.tag !== 'string' || t.tag.length > 255)) ||
    typeof t.status !== 'string' ||
    !STATUSES.has(t.status)
  ) {
    throw providerFailed('it answered a malformed transaction');
  }
  // a payer who typed no reference: the provider may send no tag at all; kept as unmatched
  return { id, amount: t.amount, tag: typeof t.tag === 'string' ? t.tag.trim() : '', status: t.status as ProviderTransaction['status'], timestamp: typeof t.timestamp === 'string' ? t.timestamp : undefined };
}

/** HTTP adapter: Bearer key, 10 s timeout, redirects refused (a redirect is not the provider answering). */
export class HttpMobileMoneyProvider extends HttpPlatform implements MobileMoneyProvider {
  private async get(path: string): Promise<{ status: number; body: unknown }> {
    if (!this.configured) throw providerNotConfigured();
    const response = await this.call(path, {
      headers: { authorization: `Bearer ${this.settings.apiKey ?? ''}`, accept: 'application/json' },
    }).catch((error: PlatformUnreachable) => {
      // the provider's address is not shown to API clients
      throw providerFailed(error.timedOut ? error.message : 'unreachable');
    });
    if (response.status === 404) return { status: 404, body: null };
    if (!response.ok) {
      await response.body?.cancel();
      throw providerFailed(`HTTP ${response.status}`);
    }
    try {
      return { status: response.status, body: await response.json() };
    } catch {
      throw providerFailed('it answered something other than JSON');
    }
  }

  async listTransactions(startdate: string, enddate: string): Promise<ProviderTransaction[]> {
    const { status, body } = await this.get(`/transactions?startdate=${startdate}&enddate=${enddate}`);
    const list = (body as { transactions?: unknown } | null)?.transactions;
    if (status === 404 || !Array.isArray(list)) throw providerFailed('it answered without a transactions list');
    return list.map(parseTransaction);
  }

  async getTransaction(id: string): Promise<ProviderTransaction | null> {
    const { status, body } = await this.get(`/transactions/${encodeURIComponent(id)}`);
    return status === 404 ? null : parseTransaction(body);
  }
}
