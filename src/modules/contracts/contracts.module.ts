import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DeviceCommandsModule } from '../device-commands/device-commands.module.js';
import { ContractJobs } from './application/contract-jobs.js';
import { ContractsService } from './application/contracts.service.js';
import { DealEvents } from './application/deal-events.js';
import { LedgerVerifier } from './application/ledger-verifier.js';
import { BonusDaysController } from './http/bonus-days.controller.js';
import { ContractsController } from './http/contracts.controller.js';
import { ContractsRepository } from './infrastructure/contracts.repository.js';

/**
 * A customer's contract (their deal: customer_deals and bonus_grants) and its state machine: credit,
 * bonus days, temporary unlock, sync, repossession, the overdue lock, deal events and ledger
 * verification. The only writer of those tables; other modules read them through ContractsService,
 * DealEvents or contract.sql.ts.
 */
@Module({
  imports: [AccountsModule, DeviceCommandsModule],
  controllers: [ContractsController, BonusDaysController],
  providers: [ContractsService, DealEvents, LedgerVerifier, ContractJobs, ContractsRepository],
  exports: [ContractsService, DealEvents, LedgerVerifier],
})
export class ContractsModule {}
