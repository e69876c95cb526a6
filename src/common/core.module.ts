import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { JobScheduler } from './jobs/job-scheduler.js';
import { BusinessClock } from './time/business-clock.js';
import { Clock, SystemClock } from './time/clock.js';

/** Configuration, the clock, the business day and the job scheduler, available everywhere. Tests hand in their own config and a manual clock. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: CoreModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
        BusinessClock,
        JobScheduler,
      ],
      exports: [AppConfig, Clock, BusinessClock, JobScheduler],
    };
  }
}
