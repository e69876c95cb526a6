import { Module } from '@nestjs/common';
import { DeliveryWorker } from './application/delivery.worker.js';
import { DeviceCommandsService } from './application/device-commands.service.js';
import { DeviceCommandsRepository } from './infrastructure/device-commands.repository.js';
import { HttpLockPlatform, LockPlatform } from './infrastructure/lock-platform.js';

/**
 * The outbox of device commands and its delivery to the lock platform. A module of its own, below
 * customers, payments and devices, because each of them writes commands in its own transactions.
 */
@Module({
  providers: [DeviceCommandsService, DeviceCommandsRepository, DeliveryWorker, { provide: LockPlatform, useClass: HttpLockPlatform }],
  exports: [DeviceCommandsService, DeliveryWorker, DeviceCommandsRepository],
})
export class DeviceCommandsModule {}
