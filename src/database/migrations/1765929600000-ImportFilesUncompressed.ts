import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored import file is read back a slice at a time (`ImportsRepository.storedFile`). Compressed,
 * each slice had to be decompressed from the start of the file: a 40 MB file took 3.5 s a pass
 * instead of 0.06 s. Kept uncompressed, a slice reads only its own TOAST chunks. A job's row is
 * deleted when its import ends, so the space is used only while a file waits or is applied.
 * Files stored before this migration stay compressed and are read as before.
 */
export class ImportFilesUncompressed1765929600000 implements MigrationInterface {
  name = 'ImportFilesUncompressed1765929600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE import_jobs ALTER COLUMN content SET STORAGE EXTERNAL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE import_jobs ALTER COLUMN content SET STORAGE EXTENDED`);
  }
}
