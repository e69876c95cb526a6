import { MigrationInterface, QueryRunner } from 'typeorm';
import { luhnValid } from '../../common/identifiers/imei.js';
import { PAYG_STORED } from '../../common/identifiers/payg.js';
import { normaliseTelephone } from '../../common/identifiers/telephone.js';

/** One customer as written by the previous release, with its User's name and its deal's status. */
export interface LegacyCustomer {
  id: number;
  user_id: number;
  username: string | null;
  telephone: string;
  guarantorcontact: string;
  imei: string;
  payg: string;
  dealstatus: string | null;
}

export interface IdentifierConflict {
  table: 'customers';
  rowId: number;
  field: 'telephone' | 'guarantorcontact' | 'imei' | 'payg';
  value: string;
  reason: string;
}

export interface IdentifierPlan {
  customers: Map<number, { telephone?: string; guarantorcontact?: string; imei?: string; payg?: string; paygLegacyDuplicate?: number }>;
  usernames: Array<{ userId: number; username: string }>;
  conflicts: IdentifierConflict[];
}

const ACTIVE = new Set(['LOCKED', 'UNLOCKED']);

/**
 * What the migration changes, decided before anything is written: every identifier that can be
 * put in its normal form without colliding is; a value that cannot be read, or whose normal form
 * another row already holds (a row already in normal form keeps it; otherwise the older row wins),
 * stays as it was and is listed as a conflict. PAYG codes that were distinct only by letter case
 * all stay, the later ones numbered in payg_legacy_duplicate so that lower(payg) stays unique for
 * every code written from now on.
 */
export function planIdentifiers(rows: LegacyCustomer[], users: Array<{ id: number; username: string }>, defaultCountry: string): IdentifierPlan {
  const plan: IdentifierPlan = { customers: new Map(), usernames: [], conflicts: [] };
  const change = (id: number, values: IdentifierPlan['customers'] extends Map<number, infer V> ? V : never) =>
    plan.customers.set(id, { ...plan.customers.get(id), ...values });
  const conflict = (row: LegacyCustomer, field: IdentifierConflict['field'], reason: string) =>
    plan.conflicts.push({ table: 'customers', rowId: row.id, field, value: row[field], reason });
  const byId = [...rows].sort((a, b) => a.id - b.id);

  // Telephones: E.164, one customer each; the customer's User is named after it.
  const userByName = new Map(users.map((u) => [u.username.toLowerCase(), u.id]));
  const telephoneHolder = new Map<string, number>();
  const telephoneOf = new Map(byId.map((r) => [r.id, normaliseTelephone(r.telephone, defaultCountry)]));
  for (const row of byId) if (telephoneOf.get(row.id) === row.telephone) telephoneHolder.set(row.telephone, row.id);
  for (const row of byId) {
    const e164 = telephoneOf.get(row.id);
    if (e164 === row.telephone) continue;
    if (!e164) {
      conflict(row, 'telephone', `not a valid telephone number in ${defaultCountry} or with a country code`);
      continue;
    }
    const holder = telephoneHolder.get(e164);
    if (holder !== undefined) {
      conflict(row, 'telephone', `${e164} is the telephone of customer ${holder}`);
      continue;
    }
    const renamesUser = row.username !== null && row.username.toLowerCase() === row.telephone.toLowerCase();
    const userHolder = userByName.get(e164.toLowerCase());
    if (renamesUser && userHolder !== undefined && userHolder !== row.user_id) {
      conflict(row, 'telephone', `${e164} is the username of user ${userHolder}`);
      continue;
    }
    telephoneHolder.set(e164, row.id);
    change(row.id, { telephone: e164 });
    if (renamesUser) {
      userByName.delete(row.username!.toLowerCase());
      userByName.set(e164.toLowerCase(), row.user_id);
      plan.usernames.push({ userId: row.user_id, username: e164 });
    }
  }

  // Guarantor contacts: E.164 where they are numbers; no uniqueness.
  for (const row of byId) {
    const e164 = normaliseTelephone(row.guarantorcontact, defaultCountry);
    if (!e164) conflict(row, 'guarantorcontact', `not a valid telephone number in ${defaultCountry} or with a country code`);
    else if (e164 !== row.guarantorcontact) change(row.id, { guarantorcontact: e164 });
  }

  // IMEIs: spaces and dashes removed; one per deal still being paid (LOCKED or UNLOCKED).
  const imeiOf = new Map(byId.map((r) => [r.id, r.imei.replace(/[\s-]/g, '')]));
  const imeiHolder = new Map<string, number>();
  for (const row of byId) if (ACTIVE.has(row.dealstatus ?? '') && imeiOf.get(row.id) === row.imei) imeiHolder.set(row.imei, row.id);
  for (const row of byId) {
    const digits = imeiOf.get(row.id)!;
    if (!/^[0-9]{15}$/.test(digits) || !luhnValid(digits)) {
      conflict(row, 'imei', 'not 15 digits with a valid check digit');
      continue;
    }
    if (digits === row.imei) continue;
    if (ACTIVE.has(row.dealstatus ?? '')) {
      const holder = imeiHolder.get(digits);
      if (holder !== undefined) {
        conflict(row, 'imei', `${digits} is the IMEI of customer ${holder}, whose deal is still being paid`);
        continue;
      }
      imeiHolder.set(digits, row.id);
    }
    change(row.id, { imei: digits });
  }

  // PAYG codes: trimmed, one per code regardless of letter case.
  const paygHolder = new Map<string, number>();
  const paygRanks = new Map<string, number>();
  const keep = (row: LegacyCustomer, payg: string) => {
    const key = payg.toLowerCase();
    const rank = paygRanks.get(key) ?? 0;
    paygRanks.set(key, rank + 1);
    if (rank === 0) {
      paygHolder.set(key, row.id);
      return;
    }
    conflict(row, 'payg', `the same code as customer ${paygHolder.get(key)}'s in another letter case`);
    change(row.id, { paygLegacyDuplicate: rank });
  };
  const trimmed = (row: LegacyCustomer) => row.payg.trim();
  for (const row of byId) if (trimmed(row) === row.payg) keep(row, row.payg);
  for (const row of byId) {
    const payg = trimmed(row);
    if (payg === row.payg) continue;
    if (!PAYG_STORED.test(payg) || paygHolder.has(payg.toLowerCase())) {
      conflict(row, 'payg', PAYG_STORED.test(payg) ? `${payg} is held by customer ${paygHolder.get(payg.toLowerCase())}` : 'not 3–64 letters, digits, dashes or underscores');
      keep(row, row.payg);
      continue;
    }
    paygHolder.set(payg.toLowerCase(), row.id);
    paygRanks.set(payg.toLowerCase(), 1);
    change(row.id, { payg });
  }
  for (const row of byId) if (trimmed(row) === row.payg && !PAYG_STORED.test(row.payg)) conflict(row, 'payg', 'not 3–64 letters, digits, dashes or underscores');
  return plan;
}

/**
 * Issue 14 / DESIGN part 10: telephones in E.164 (the customer's User too), IMEIs without spaces or
 * dashes and unique among deals still being paid, PAYG codes trimmed and unique regardless of
 * letter case. Values that cannot be normalised, or whose normal form is taken, stay as they were
 * and are listed in identifier_conflicts (and counted in one warning line) for an operator.
 */
export class NormalisedIdentifiers1764979200000 implements MigrationInterface {
  name = 'NormalisedIdentifiers1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identifier_conflicts (
        id serial PRIMARY KEY,
        migration varchar(100) NOT NULL,
        table_name varchar(63) NOT NULL,
        row_id integer NOT NULL,
        field varchar(63) NOT NULL,
        value varchar(255) NOT NULL,
        reason varchar(255) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE customers ADD COLUMN payg_legacy_duplicate smallint NOT NULL DEFAULT 0 CHECK (payg_legacy_duplicate >= 0)`);
    await q.query(`DROP INDEX customers_imei_key`);
    await q.query(`DROP INDEX customers_payg_key`);

    const rows = (await q.query(`
      SELECT c.id, c.user_id, u.username, c.telephone, c.guarantorcontact, c.imei, c.payg, cd.status AS dealstatus
      FROM customers c LEFT JOIN users u ON u.id = c.user_id LEFT JOIN customer_deals cd ON cd.customer_id = c.id
      ORDER BY c.id`)) as LegacyCustomer[];
    const users = (await q.query(`SELECT id, username FROM users`)) as Array<{ id: number; username: string }>;
    // The migration runs before the service reads its configuration; it honours the same variable.
    const defaultCountry = process.env.DEFAULT_COUNTRY || 'UG';
    const plan = planIdentifiers(rows, users, defaultCountry);

    for (const [id, c] of plan.customers) {
      await q.query(
        `UPDATE customers SET telephone = coalesce($2, telephone), guarantorcontact = coalesce($3, guarantorcontact), imei = coalesce($4, imei),
           payg = coalesce($5, payg), payg_legacy_duplicate = coalesce($6, payg_legacy_duplicate) WHERE id = $1`,
        [id, c.telephone ?? null, c.guarantorcontact ?? null, c.imei ?? null, c.payg ?? null, c.paygLegacyDuplicate ?? null],
      );
    }
    for (const u of plan.usernames) await q.query(`UPDATE users SET username = $2 WHERE id = $1`, [u.userId, u.username]);

    await q.query(`ALTER TABLE customer_deals ADD COLUMN imei varchar(32)`);
    await q.query(`UPDATE customer_deals cd SET imei = c.imei FROM customers c WHERE c.id = cd.customer_id`);
    await q.query(`ALTER TABLE customer_deals ALTER COLUMN imei SET NOT NULL`);

    await q.query(`CREATE UNIQUE INDEX customers_payg_lower_key ON customers (lower(payg), payg_legacy_duplicate)`);
    await q.query(`CREATE UNIQUE INDEX customer_deals_imei_active_key ON customer_deals (imei) WHERE status IN ('LOCKED', 'UNLOCKED')`);
    await q.query(`CREATE INDEX customers_imei_idx ON customers (imei)`);

    for (const c of plan.conflicts) {
      await q.query(`INSERT INTO identifier_conflicts (migration, table_name, row_id, field, value, reason) VALUES ($1, $2, $3, $4, $5, $6)`, [
        this.name,
        c.table,
        c.rowId,
        c.field,
        c.value.slice(0, 255),
        c.reason.slice(0, 255),
      ]);
    }
    if (plan.conflicts.length > 0) {
      // One line, without the values themselves (telephone numbers are personal data): they are in the table.
      const counts = new Map<string, number>();
      for (const c of plan.conflicts) counts.set(c.field, (counts.get(c.field) ?? 0) + 1);
      const fields = [...counts].map(([field, n]) => `${field} ${n}`);
      process.stderr.write(
        `${JSON.stringify({ level: 'warn', migration: this.name, msg: `${plan.conflicts.length} identifiers left as they were (${fields.join(', ')}): see the table identifier_conflicts` })}\n`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const shared = (await q.query(`SELECT imei, array_agg(id ORDER BY id) AS ids FROM customers GROUP BY imei HAVING count(*) > 1 LIMIT 5`)) as Array<{ imei: string; ids: number[] }>;
    if (shared.length > 0) {
      throw new Error(
        `Cannot revert ${this.name}: the previous release allows one customer per IMEI, and these IMEIs moved from a finished deal to a new one: ${shared.map((s) => `${s.imei} (customers ${s.ids.join(', ')})`).join('; ')}`,
      );
    }
    await q.query(`DROP INDEX customers_imei_idx`);
    await q.query(`DROP INDEX customer_deals_imei_active_key`);
    await q.query(`DROP INDEX customers_payg_lower_key`);
    await q.query(`ALTER TABLE customer_deals DROP COLUMN imei`);
    await q.query(`ALTER TABLE customers DROP COLUMN payg_legacy_duplicate`);
    await q.query(`CREATE UNIQUE INDEX customers_payg_key ON customers (payg)`);
    await q.query(`CREATE UNIQUE INDEX customers_imei_key ON customers (imei)`);
    await q.query(`DROP TABLE identifier_conflicts`);
  }
}
