import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { accountNumberFor } from '../domain/account-number.js';

@Injectable()
export class AccountsRepository {
  /** Takes the next id first so the account number (derived from it) is written in the same insert. */
  async open(em: EntityManager): Promise<{ accountid: number; accountnumber: string }> {
    const [account] = await this.openMany(em, 1);
    return account;
  }

  /** `n` accounts in two round trips (their ids, then one insert): an import's customers. */
  async openMany(em: EntityManager, n: number): Promise<Array<{ accountid: number; accountnumber: string }>> {
    if (n === 0) return [];
    const ids = (await em.query(`SELECT nextval(pg_get_serial_sequence('accounts', 'id'))::int AS id FROM generate_series(1, $1)`, [n])) as Array<{ id: number }>;
    const accounts = ids.map(({ id }) => ({ accountid: id, accountnumber: accountNumberFor(id) }));
    await em.query('INSERT INTO accounts (id, accountnumber) SELECT * FROM unnest($1::int[], $2::text[])', [accounts.map((a) => a.accountid), accounts.map((a) => a.accountnumber)]);
    return accounts;
  }
}
