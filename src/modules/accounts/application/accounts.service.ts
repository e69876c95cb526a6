import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccountsRepository } from '../infrastructure/accounts.repository.js';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  /** Opens the account of a new customer, inside the registration transaction. */
  open(em: EntityManager): Promise<{ accountid: number; accountnumber: string }> {
    return this.accounts.open(em);
  }

  /** `n` accounts at once, inside an import's transaction. */
  openMany(em: EntityManager, n: number): Promise<Array<{ accountid: number; accountnumber: string }>> {
    return this.accounts.openMany(em, n);
  }
}
