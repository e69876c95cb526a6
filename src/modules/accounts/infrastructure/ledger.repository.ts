import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentType } from '../domain/payment-type.js';
import { APPEND_LEDGER_ROW, ledgerEntryValues, LedgerRow, NewLedgerEntry } from '../ledger.sql.js';

@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends one row; null when its source already used the reference. */
  async append(em: EntityManager, entry: NewLedgerEntry): Promise<LedgerRow | null> {
    const rows = (await em.query(APPEND_LEDGER_ROW, ledgerEntryValues(entry))) as LedgerRow[];
    return rows[0] ?? null;
  }

  /**
   * Appends many rows in one statement, in the order given (ids ascending); a reference its source
   * already used is left out, so the rows answered are the ones written.
   */
  async appendMany(em: EntityManager, entries: NewLedgerEntry[]): Promise<Array<Pick<LedgerRow, 'id' | 'reference' | 'type'>>> {
    if (entries.length === 0) return [];
    const column = <K extends keyof NewLedgerEntry>(key: K) => entries.map((e) => e[key]);
    return (await em.query(
      `INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_by)
       SELECT c, d, a, r, n, t, b FROM unnest($1::int[], $2::int[], $3::numeric[], $4::text[], $5::text[], $6::text[], $7::int[]) WITH ORDINALITY AS u(c, d, a, r, n, t, b, i) ORDER BY i
       ON CONFLICT (type, reference) DO NOTHING
       RETURNING id, reference, type`,
      [column('customerId'), column('customerDealId'), column('amount'), column('reference'), column('narration'), column('type'), column('createdBy')],
    )) as Array<Pick<LedgerRow, 'id' | 'reference' | 'type'>>;
  }

  recent(customerId: number, limit: number): Promise<LedgerRow[]> {
    return this.dataSource.query(
      `SELECT id, customer_id, amount, reference, narration, type, created_at
       FROM payments WHERE customer_id = $1 ORDER BY id DESC LIMIT $2`,
      [customerId, limit],
    );
  }

  async referencesUsed(type: PaymentType, references: string[], em?: EntityManager): Promise<Set<string>> {
    const rows = (await (em ?? this.dataSource.manager).query('SELECT reference FROM payments WHERE type = $1 AND reference = ANY($2)', [type, references])) as Array<{ reference: string }>;
    return new Set(rows.map((r) => r.reference));
  }

  /** Whether a payment of this source (type) already carries the reference: references live in one namespace per source. */
  async referenceUsed(type: PaymentType, reference: string, em?: EntityManager): Promise<boolean> {
    const rows = (await (em ?? this.dataSource.manager).query('SELECT 1 FROM payments WHERE type = $1 AND reference = $2', [type, reference])) as unknown[];
    return rows.length > 0;
  }
}
