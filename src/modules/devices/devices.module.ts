import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { DeviceCommandsModule } from '../device-commands/device-commands.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { DeviceJobs } from './application/device-jobs.js';
import { DevicesService } from './application/devices.service.js';
import { DevicesController } from './http/devices.controller.js';

@Module({
  imports: [CustomersModule, PaymentsModule, DeviceCommandsModule],
  controllers: [DevicesController],
  providers: [DevicesService, DeviceJobs],
  exports: [DevicesService],
})
export class DevicesModule {}
