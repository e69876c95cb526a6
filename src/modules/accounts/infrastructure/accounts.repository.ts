import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { preparedQuery, preparedStatement } from '../../../common/database/prepared-query.js';
import { accountNumberFor } from '../domain/account-number.js';

/** How many account ids a registration that finds none reserved takes from the sequence at once. */
const RESERVED_IDS = 32;

@Injectable()
export class AccountsRepository {
  private static readonly INSERT_ONE = preparedStatement(AccountsRepository, 'open', 'INSERT INTO accounts (id, accountnumber) VALUES ($1, $2)');

  /**
   * Ids taken from the accounts sequence ahead of the registrations that will use them. A sequence
   * hands out each value once, whatever happens to the transaction that asked, so an id reserved here
   * is never anyone else's; what a process still holds when it stops is a gap in the numbering, as a
   * rolled-back registration always left one.
   */
  private readonly reservedIds: number[] = [];

  /**
   * One registration's account, its number derived from its id and written in the same insert. The
   * id comes from those reserved ahead, so most registrations make this one statement here instead of
   * asking the sequence first.
   */
  async open(em: EntityManager): Promise<{ accountid: number; accountnumber: string }> {
    if (this.reservedIds.length === 0) this.reservedIds.push(...(await this.nextIds(em, RESERVED_IDS)));
    const accountid = this.reservedIds.shift()!;
    const account = { accountid, accountnumber: accountNumberFor(accountid) };
    await preparedQuery(em, AccountsRepository.INSERT_ONE, [account.accountid, account.accountnumber]);
    return account;
  }

  /** `n` accounts in two round trips (their ids, then one insert): an import's customers. */
  async openMany(em: EntityManager, n: number): Promise<Array<{ accountid: number; accountnumber: string }>> {
    if (n === 0) return [];
    const accounts = (await this.nextIds(em, n)).map((id) => ({ accountid: id, accountnumber: accountNumberFor(id) }));
    await em.query('INSERT INTO accounts (id, accountnumber) SELECT * FROM unnest($1::int[], $2::text[])', [accounts.map((a) => a.accountid), accounts.map((a) => a.accountnumber)]);
    return accounts;
  }

  private async nextIds(em: EntityManager, n: number): Promise<number[]> {
    const rows = (await em.query(`SELECT nextval(pg_get_serial_sequence('accounts', 'id'))::int AS id FROM generate_series(1, $1)`, [n])) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }
}
