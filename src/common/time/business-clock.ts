import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { businessDay } from './business-date.js';
import { Clock } from './clock.js';

/** The business day now, in BUSINESS_TIMEZONE: it decides due dates, unlocks and the reports' "today". */
@Injectable()
export class BusinessClock {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  today(): string {
    return this.dayOf(this.clock.now());
  }

  /** The business day an instant falls on. */
  dayOf(instant: Date): string {
    return businessDay(instant, this.config.businessTimeZone);
  }
}
