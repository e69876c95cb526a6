import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentType } from './payment.entity.js';

export interface LedgerRow {
  id: string;
  customer_id: number;
  amount: string;
  reference: string;
  narration: string;
  type: PaymentType;
  created_at: Date;
}

export interface NewLedgerEntry {
  customerId: number;
  customerDealId: number;
  amount: string;
  reference: string;
  narration: string;
  type: PaymentType;
  createdBy: number | null;
}

@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends one row; a reference its source already used fails with a unique violation on payments_type_reference_key. */
  async append(em: EntityManager, entry: NewLedgerEntry): Promise<LedgerRow> {
    const rows = (await em.query(
      `INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, customer_id, amount, reference, narration, type, created_at`,
      [entry.customerId, entry.customerDealId, entry.amount, entry.reference, entry.narration, entry.type, entry.createdBy],
    )) as LedgerRow[];
    return rows[0];
  }

  recent(customerId: number, limit: number): Promise<LedgerRow[]> {
    return this.dataSource.query(
      `SELECT id, customer_id, amount, reference, narration, type, created_at
       FROM payments WHERE customer_id = $1 ORDER BY id DESC LIMIT $2`,
      [customerId, limit],
    );
  }

  amountsForDeal(customerDealId: number, em?: EntityManager): Promise<Array<{ amount: string }>> {
    return (em ?? this.dataSource.manager).query('SELECT amount FROM payments WHERE customer_deal_id = $1 ORDER BY id', [customerDealId]);
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
