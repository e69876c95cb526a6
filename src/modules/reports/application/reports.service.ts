import { Injectable } from '@nestjs/common';
import { Money, ratio } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { checkDateRange, MAX_RANGE_DAYS } from '../../../common/time/date-range.js';
import { AppConfig } from '../../../config/app-config.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { DealStatus } from '../../contracts/domain/credit-policy.js';
import { PortfolioRepository } from '../infrastructure/portfolio.repository.js';

export interface PortfolioReport {
  asof: string;
  currency: string;
  activedeals: number;
  outstandingbalance: number;
  amountinarrears: number;
  par30balance: number;
  par30: number;
  repossesseddeals: number;
  repossessedbalance: number;
  writtenoffbalance: number;
  bookbalance: number;
  collection: CollectionRate;
  dealsbystatus: DealsByStatus;
}

export interface CollectionRate {
  startdate: string;
  enddate: string;
  due: number;
  collected: number;
  rate: number | null;
}

export type DealsByStatus = Record<DealStatus, number>;

@Injectable()
export class ReportsService {
  constructor(
    private readonly portfolio: PortfolioRepository,
    private readonly businessClock: BusinessClock,
    private readonly config: AppConfig,
  ) {}

  /**
   * The figures PAYG lenders report (GOGLA PAYGo PERFORM style): active deals, outstanding balance,
   * arrears, PAR30, the balances outside the active portfolio on their own lines (repossessed,
   * written off) and the collection rate of a range of days (by default the 31 days up to today).
   * Every definition is in http/reports.dto.ts, where the OpenAPI document shows it.
   */
  async portfolioReport(range: { startdate?: string; enddate?: string }): Promise<PortfolioReport> {
    const today = this.businessClock.today();
    const enddate =
      range.enddate ?? (range.startdate ? min(addDays(range.startdate, MAX_RANGE_DAYS - 1), today) : today);
    const startdate = range.startdate ?? addDays(enddate, -(MAX_RANGE_DAYS - 1));
    checkDateRange(startdate, enddate);
    const [deals, collection] = await Promise.all([
      this.portfolio.dealFigures(today),
      this.portfolio.collectionFigures(startdate, enddate, today, this.config.businessTimeZone),
    ]);
    const outstanding = Money.of(deals.outstanding);
    const par30balance = Money.of(deals.par30balance);
    const repossessedbalance = Money.of(deals.repossessedbalance);
    // No write-off exists in the service yet: a repossessed deal's balance is still owed (payments
    // on it are still recorded) and has its own line. Written off is a line of its own all the same,
    // so that adding write-offs later cannot make money vanish from the book.
    const writtenoffbalance = Money.zero();
    const due = Money.of(collection.due);
    const collected = Money.of(collection.collected);
    return {
      asof: today,
      currency: this.config.currency,
      activedeals: deals.activedeals,
      outstandingbalance: outstanding.toNumber(),
      amountinarrears: Money.of(deals.arrears).toNumber(),
      par30balance: par30balance.toNumber(),
      par30: ratio(par30balance, outstanding) ?? 0,
      repossesseddeals: deals.repossessed,
      repossessedbalance: repossessedbalance.toNumber(),
      writtenoffbalance: writtenoffbalance.toNumber(),
      bookbalance: Money.of(deals.bookbalance).toNumber(),
      collection: {
        startdate,
        enddate,
        due: due.toNumber(),
        collected: collected.toNumber(),
        rate: ratio(collected, due),
      },
      dealsbystatus: {
        LOCKED: deals.locked,
        UNLOCKED: deals.unlocked,
        PAID_OFF: deals.paidoff,
        REPOSSESSED: deals.repossessed,
      },
    };
  }
}

const min = (a: string, b: string) => (a < b ? a : b);
