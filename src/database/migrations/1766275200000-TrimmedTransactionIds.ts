import { MigrationInterface, QueryRunner } from 'typeorm';

/** The white space JavaScript's String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator). */
const JS_WHITESPACE = '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]';

/**
 * Mobile-money transaction ids arriving by callback were always trimmed; those a look-up or
 * reconciliation stored were kept as the provider listed them. From this release every path trims,
 * so a stored " MP1 " would no longer be found when MP1 is listed again, and would be credited a
 * second time. Stored ids are trimmed here, one per trimmed value, where the trimmed id is not
 * stored already (a pair that exists already was two notifications and stays two). The ledger rows
 * keep their references: repeats are recognised by the notification's id.
 */
export class TrimmedTransactionIds1766275200000 implements MigrationInterface {
  name = 'TrimmedTransactionIds1766275200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `WITH untrimmed AS (
         SELECT DISTINCT ON (trimmed) id, trimmed
         FROM (SELECT id, regexp_replace(id, $1, '', 'g') AS trimmed FROM mobile_money_transactions) AS t
         WHERE trimmed <> id AND trimmed <> ''
         ORDER BY trimmed, id)
       UPDATE mobile_money_transactions m SET id = u.trimmed FROM untrimmed u
       WHERE m.id = u.id AND NOT EXISTS (SELECT 1 FROM mobile_money_transactions o WHERE o.id = u.trimmed)`,
      [`^${JS_WHITESPACE}+|${JS_WHITESPACE}+$`],
    );
  }

  async down(): Promise<void> {
    // which ids had spaces around them is not kept; trimmed ids are valid for the previous release too
  }
}
