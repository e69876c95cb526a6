import { Injectable } from '@nestjs/common';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { PaymentsPerDayRepository } from '../infrastructure/payments-per-day.repository.js';

export interface DayPayments {
  date: string;
  payments: number;
  amount: number;
}

export interface PaymentsPerDay {
  startdate: string;
  enddate: string;
  days: DayPayments[];
}

/** The dashboard's chart data that no other report gives. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly perDay: PaymentsPerDayRepository,
    private readonly businessClock: BusinessClock,
    private readonly config: AppConfig,
  ) {}

  async paymentsPerDay(days: number): Promise<PaymentsPerDay> {
    const enddate = this.businessClock.today();
    const startdate = addDays(enddate, 1 - days);
    const rows = await this.perDay.between(startdate, enddate, this.config.businessTimeZone);
    return { startdate, enddate, days: rows.map((r) => ({ date: r.date, payments: r.payments, amount: Money.of(r.amount).toNumber() })) };
  }
}
