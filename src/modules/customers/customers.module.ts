import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { ContractsModule } from '../contracts/contracts.module.js';
import { DealsModule } from '../deals/deals.module.js';
import { UsersModule } from '../users/users.module.js';
import { CustomersService } from './application/customers.service.js';
import { AccountsController } from './http/accounts.controller.js';
import { CustomersController } from './http/customers.controller.js';
import { CustomersRepository } from './infrastructure/customers.repository.js';

/**
 * People and their registration: the customers table, written here only. Registration opens the
 * customer's contract through ContractsService; the `accounts/info` route answers with the customer
 * and deal behind an account, so it is served here too.
 */
@Module({
  imports: [UsersModule, AccountsModule, DealsModule, ContractsModule],
  controllers: [CustomersController, AccountsController],
  providers: [CustomersService, CustomersRepository],
  exports: [CustomersService],
})
export class CustomersModule {}
