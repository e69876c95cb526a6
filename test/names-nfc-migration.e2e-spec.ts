import pg from 'pg';
import { databaseBefore } from './support/migration-under-test.js';

describe('Migration 1766620800000: names stored with decomposed accents', () => {
  let old: Awaited<ReturnType<typeof databaseBefore>>;
  let client: pg.Client;

  beforeAll(async () => {
    old = await databaseBefore(1766620800000, 'nfc');
    client = new pg.Client({ connectionString: old.url });
    await client.connect();
    // as an import of the previous release stored a file written with decomposed accents
    const names = [['Jose\u0301 Okello', 'Zoe\u0308'], ['Amina Nakato', 'Plain'], [`${'e\u0301'.repeat(127)}x`, 'Long']];
    for (const [i, [fullname, guarantorname]] of names.entries()) {
      const { rows: [user] } = await client.query(`INSERT INTO users (username, role) VALUES ($1, 'CUSTOMER') RETURNING id`, [`+25677255500${i}`]);
      const { rows: [account] } = await client.query(`INSERT INTO accounts (accountnumber) VALUES ($1) RETURNING id`, [`AC00000000${i}`]);
      await client.query(
        `INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg) VALUES ($1, $2, $3, $4, $5, '+256701987654', $6, $7)`,
        [user.id, account.id, fullname, `+25677255500${i}`, guarantorname, `49015420323751${i}`, `PAYG-NFC-${i}`],
      );
    }
    await old.migrateRest();
  });

  afterAll(async () => {
    await client?.end();
    await old?.drop();
  });

  it('brings every name to NFC', async () => {
    const { rows } = await client.query(`SELECT fullname, guarantorname FROM customers ORDER BY id`);
    expect(rows).toEqual([
      { fullname: 'José Okello', guarantorname: 'Zoë' },
      { fullname: 'Amina Nakato', guarantorname: 'Plain' },
      { fullname: `${'é'.repeat(127)}x`, guarantorname: 'Long' },
    ]);
  });
});
