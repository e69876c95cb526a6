import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { withAdvisoryLock } from '../../../common/database/advisory-lock.js';
import { Scheduled, SOON_AFTER_START_MS } from '../../../common/jobs/job-scheduler.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { MobileMoneyProvider } from '../infrastructure/mobile-money-provider.js';
import { MobileMoneyService } from './mobile-money.service.js';

const LOCK = 72_201_002;

/**
 * Every MOBILE_MONEY_LOOKUP_MINUTES: look up the last two days at the provider, because providers
 * such as MTN MoMo post a callback once and never retry. Off without a provider. One instance at a
 * time runs it (advisory lock); running it twice would change nothing anyway.
 */
@Injectable()
export class LookupJob {
  private readonly logger = new Logger('LookupJob');

  constructor(
    private readonly mobileMoney: MobileMoneyService,
    private readonly provider: MobileMoneyProvider,
    private readonly businessClock: BusinessClock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  // also soon after start: a callback lost while the service was down (the provider posts it once) is found
  // then, not a whole period later, and not never for a service restarted more often than the period
  @Scheduled('mobile-money-lookup', (config) => ({ everyMs: config.mobileMoneyLookupMinutes * 60_000, firstAfterMs: SOON_AFTER_START_MS }))
  async run(): Promise<void> {
    if (!this.provider.configured) return;
    await withAdvisoryLock(this.dataSource, LOCK, async () => {
      const answer = await this.mobileMoney.lookupRecent(this.businessClock.today());
      if (answer.applied || answer.unmatched) this.logger.log(`look-up: ${JSON.stringify(answer)}`);
    });
  }
}

/**
 * Every two minutes, with a provider or without: stored unmatched payments whose tag has since become
 * a customer's PAYG code are credited. Registration and lock-update apply them in their own
 * transaction, and a callback racing a registration waits for it; this round catches what raced an
 * import (whose codes are not locked one by one) or anything else that slipped between two commits.
 */
@Injectable()
export class MatchWaitingJob {
  private readonly logger = new Logger('MatchWaitingJob');

  constructor(private readonly mobileMoney: MobileMoneyService) {}

  @Scheduled('match-waiting-payments', () => ({ everyMs: 120_000 }))
  async run(): Promise<number> {
    let total = 0;
    for (let n = -1; n !== 0; total += n) n = await this.mobileMoney.applyMatchable();
    if (total) this.logger.log(`credited ${total} waiting payments whose PAYG code now has a customer`);
    return total;
  }
}
