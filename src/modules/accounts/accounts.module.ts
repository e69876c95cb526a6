import { Module } from '@nestjs/common';
import { AccountsService } from './application/accounts.service.js';
import { LedgerService } from './application/ledger.service.js';
import { AccountsRepository } from './infrastructure/accounts.repository.js';
import { LedgerRepository } from './infrastructure/ledger.repository.js';

/**
 * Customer accounts and their ledger: numbering, opening, and the append-only payment rows every
 * balance is derived from (the accounts and payments tables). Ledger rows are written by
 * LedgerService or, where a payment and its deal change in one statement, by contracts with the
 * append this module publishes in ledger.sql.ts. The `accounts/info` route answers with the customer
 * and deal behind an account, so it is served by the customers module.
 */
@Module({
  providers: [AccountsService, AccountsRepository, LedgerService, LedgerRepository],
  exports: [AccountsService, LedgerService],
})
export class AccountsModule {}
