import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { ContractsModule } from '../contracts/contracts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DealsModule } from '../deals/deals.module.js';
import { MessagesModule } from '../messages/messages.module.js';
import { ImportRunner } from './application/import-runner.js';
import { ImportValidator } from './application/import-validator.js';
import { ImportsService } from './application/imports.service.js';
import { ImportsController } from './http/imports.controller.js';
import { ImportsRepository } from './infrastructure/imports.repository.js';

/**
 * CSV imports of customers (an existing book) and payments (DESIGN part 12). Owns the tables
 * imports, import_jobs and import_rows; writes the book only through the customers (registration),
 * contracts (deal state) and accounts (ledger) services, whose device commands go through the outbox.
 */
@Module({
  imports: [CustomersModule, ContractsModule, DealsModule, AccountsModule, MessagesModule],
  controllers: [ImportsController],
  providers: [ImportsService, ImportValidator, ImportRunner, ImportsRepository],
})
export class ImportsModule {}
