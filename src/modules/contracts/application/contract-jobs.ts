import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobScheduler } from '../../../common/jobs/job-scheduler.js';
import { AppConfig } from '../../../config/app-config.js';
import { ContractsService } from './contracts.service.js';

const BATCH = 500;

/**
 * Two scheduled runs that keep devices in step with time: locking deals whose paid-up date has come
 * (every OVERDUE_CHECK_MINUTES) and ending temporary unlocks (every minute). Both claim rows with
 * SKIP LOCKED, so any number of instances may run them at once without doing anything twice.
 */
@Injectable()
export class ContractJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger('ContractJobs');

  constructor(
    private readonly contracts: ContractsService,
    private readonly jobs: JobScheduler,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule({ name: 'overdue-lock', everyMs: this.config.overdueCheckMinutes * 60_000, run: () => this.lockOverdue() });
    this.jobs.schedule({ name: 'temporary-unlock-end', everyMs: 60_000, run: () => this.endTemporaryUnlocks() });
  }

  /** Locks every overdue unlocked deal, in batches; returns how many. */
  async lockOverdue(): Promise<number> {
    let total = 0;
    for (let n = BATCH; n === BATCH; total += n) n = await this.contracts.lockOverdueBatch(BATCH);
    if (total) this.logger.log(`locked ${total} overdue deals`);
    return total;
  }

  /** Pushes the real state to devices whose temporary unlock is over; returns how many. */
  endTemporaryUnlocks(): Promise<number> {
    return this.contracts.endTemporaryUnlocks(BATCH);
  }
}
