import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DeliveryWorker } from './application/delivery.worker.js';
import { DeviceCommandsService } from './application/device-commands.service.js';
import { DeviceCommandsRepository } from './infrastructure/device-commands.repository.js';
import { HttpLockPlatform, LockPlatform } from './infrastructure/lock-platform.js';

/**
 * The outbox of device commands (the device_commands table, written here only) and its delivery to
 * the lock platform. A module of its own, below contracts, because contracts writes a command in the
 * transaction of every change it announces; the device routes above contracts are the devices module.
 */
@Module({
  providers: [DeviceCommandsService, DeviceCommandsRepository, DeliveryWorker, { provide: LockPlatform, inject: [AppConfig], useFactory: (config: AppConfig) => new HttpLockPlatform(config.deviceLock) }],
  exports: [DeviceCommandsService, DeliveryWorker],
})
export class DeviceCommandsModule {}
