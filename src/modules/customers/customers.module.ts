import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DealsModule } from '../deals/deals.module.js';
import { DeviceCommandsModule } from '../device-commands/device-commands.module.js';
import { UsersModule } from '../users/users.module.js';
import { DealEvents } from './application/deal-events.js';
import { DealStateService } from './application/deal-state.service.js';
import { CustomersService } from './application/customers.service.js';
import { LedgerVerifier } from './application/ledger-verifier.js';
import { AccountsController } from './http/accounts.controller.js';
import { CustomersController } from './http/customers.controller.js';
import { CustomerDealsRepository } from './infrastructure/customer-deals.repository.js';
import { CustomersRepository } from './infrastructure/customers.repository.js';

@Module({
  imports: [UsersModule, AccountsModule, DealsModule, DeviceCommandsModule],
  controllers: [CustomersController, AccountsController],
  providers: [CustomersService, DealStateService, DealEvents, LedgerVerifier, CustomersRepository, CustomerDealsRepository],
  exports: [CustomersService, DealStateService, DealEvents, LedgerVerifier],
})
export class CustomersModule {}
