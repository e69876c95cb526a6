import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The same file again answers the earlier import so that nothing is applied twice (DESIGN part 12).
 * That holds for an import that applied (DONE) or may still (VALIDATING, APPLYING); a FAILED one
 * wrote nothing, and its file, sent again once the book or the rows are right, must be tried again
 * as a new import. The key on the file's hash now leaves FAILED imports out; it still lets one of
 * several identical applies sent at once in. Down refuses while a file has a FAILED import and a
 * later one (the previous release would not know which to answer).
 */
export class RetryFailedImports1766448000000 implements MigrationInterface {
  name = 'RetryFailedImports1766448000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX imports_apply_filehash_key`);
    await q.query(`CREATE UNIQUE INDEX imports_apply_filehash_key ON imports (filehash) WHERE mode = 'apply' AND status <> 'FAILED'`);
  }

  async down(q: QueryRunner): Promise<void> {
    const twice = (await q.query(`SELECT string_agg(id::text, ', ' ORDER BY id) AS ids FROM imports WHERE mode = 'apply' GROUP BY filehash HAVING count(*) > 1`)) as Array<{ ids: string }>;
    if (twice.length) throw new Error(`Cannot revert ${this.name}: files applied again after they FAILED (imports ${twice.map((t) => t.ids).join('; ')}); the previous release keeps one apply per file.`);
    await q.query(`DROP INDEX imports_apply_filehash_key`);
    await q.query(`CREATE UNIQUE INDEX imports_apply_filehash_key ON imports (filehash) WHERE mode = 'apply'`);
  }
}
