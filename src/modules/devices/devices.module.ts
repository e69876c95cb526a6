import { Module } from '@nestjs/common';
import { ContractsModule } from '../contracts/contracts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DeviceCommandsModule } from '../device-commands/device-commands.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { DevicesService } from './application/devices.service.js';
import { DevicesController } from './http/devices.controller.js';

/**
 * The device routes (`/finance/device/*`): an operator's view of a financed device. Owns no table:
 * the device's identity is the customer's, its lock state the contract's, its commands the outbox's
 * (device-commands, which also delivers them).
 */
@Module({
  imports: [CustomersModule, ContractsModule, PaymentsModule, DeviceCommandsModule],
  controllers: [DevicesController],
  providers: [DevicesService],
})
export class DevicesModule {}
