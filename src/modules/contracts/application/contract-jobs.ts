import { Injectable, Logger } from '@nestjs/common';
import { Scheduled, SOON_AFTER_START_MS } from '../../../common/jobs/job-scheduler.js';
import { ContractsService } from './contracts.service.js';

const BATCH = 500;

/**
 * Two scheduled runs that keep devices in step with time: locking deals whose paid-up date has come
 * (every OVERDUE_CHECK_MINUTES) and ending temporary unlocks (every minute). Both claim rows with
 * SKIP LOCKED, so any number of instances may run them at once without doing anything twice.
 */
@Injectable()
export class ContractJobs {
  private readonly logger = new Logger('ContractJobs');

  constructor(private readonly contracts: ContractsService) {}

  /** Locks every overdue unlocked deal, in batches; returns how many. */
  // also soon after start: were its first run a whole period away, a service restarted more often than
  // OVERDUE_CHECK_MINUTES (a crash loop, one deployment after another) would never lock an overdue device
  @Scheduled('overdue-lock', (config) => ({ everyMs: config.overdueCheckMinutes * 60_000, firstAfterMs: SOON_AFTER_START_MS }))
  async lockOverdue(): Promise<number> {
    let total = 0;
    for (let n = BATCH; n === BATCH; total += n) n = await this.contracts.lockOverdueBatch(BATCH);
    if (total) this.logger.log(`locked ${total} overdue deals`);
    return total;
  }

  /** Pushes the real state to devices whose temporary unlock is over; returns how many. */
  @Scheduled('temporary-unlock-end', () => ({ everyMs: 60_000 }))
  endTemporaryUnlocks(): Promise<number> {
    return this.contracts.endTemporaryUnlocks(BATCH);
  }
}
