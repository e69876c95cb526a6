import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customers are found by the end of their telephone number (what an operator reads off a phone or a
 * receipt) with a b-tree on the reversed number, instead of a trigram index: every number shares its
 * country code's trigrams, so the trigram index visited the whole book for any number (issue 15,
 * search at 1,000,000 customers).
 */
export class TelephoneSuffixSearch1765756800000 implements MigrationInterface {
  name = 'TelephoneSuffixSearch1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX customers_telephone_reverse_idx ON customers (reverse(telephone) text_pattern_ops)`);
    await q.query(`DROP INDEX customers_telephone_trgm_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX customers_telephone_trgm_idx ON customers USING gin (telephone gin_trgm_ops)`);
    await q.query(`DROP INDEX customers_telephone_reverse_idx`);
  }
}
