import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Names are stored in Unicode NFC from this release (PersonNameField, and the customers import): a
 * name typed or imported with decomposed accents ("José" as e + U+0301, as some systems export
 * it) was not found by a search typed the usual way. Names stored before are brought to NFC too,
 * where the NFC form still fits the column.
 */
export class NamesInNfc1766620800000 implements MigrationInterface {
  name = 'NamesInNfc1766620800000';

  async up(q: QueryRunner): Promise<void> {
    for (const column of ['fullname', 'guarantorname']) {
      await q.query(`UPDATE customers SET ${column} = normalize(${column}, NFC) WHERE ${column} IS NOT NFC NORMALIZED AND length(normalize(${column}, NFC)) <= 255`);
    }
  }

  async down(): Promise<void> {
    // the NFC form is the same name: nothing to undo
  }
}
