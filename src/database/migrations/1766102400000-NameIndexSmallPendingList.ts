import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The name search's trigram index keeps a pending list again, but a small one: 64 kB (8 pages, about
 * 130 names) instead of GIN's default 4 MB. Written straight into the index (NameSearchWithoutPendingList),
 * a registration's name touched about 120 index pages and wrote 5–10 kB of WAL: the customer insert
 * cost 0.27 ms against 0.18 ms with this list, and 5.4 kB of WAL against 2.0 kB (pgbench, 4 clients,
 * a copy of the customers table with all its indexes). A name search reads the list whole, so it reads
 * at most 8 more pages (51 buffers instead of 44 with 7 pages waiting) and the planner keeps the index;
 * the 4 MB list had made it walk the table. When the list is full, the insert that fills it merges it
 * into the index, sorted (cheaper per name than one at a time); vacuum merges it too.
 */
export class NameIndexSmallPendingList1766102400000 implements MigrationInterface {
  name = 'NameIndexSmallPendingList1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX customers_fullname_trgm_idx SET (fastupdate = on, gin_pending_list_limit = 64)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX customers_fullname_trgm_idx SET (fastupdate = off)`);
    await q.query(`ALTER INDEX customers_fullname_trgm_idx RESET (gin_pending_list_limit)`);
    // names waiting in the list go into the index now (turning fast update off leaves them there)
    await q.query(`SELECT gin_clean_pending_list('customers_fullname_trgm_idx'::regclass)`);
  }
}
