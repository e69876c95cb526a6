import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { DealStateService } from '../../customers/application/deal-state.service.js';
import { DeviceCommandsRepository } from '../../device-commands/infrastructure/device-commands.repository.js';

const BATCH = 500;

/**
 * Two scheduled runs that keep devices in step with time: locking deals whose paid-up date has come
 * (every OVERDUE_CHECK_MINUTES) and ending temporary unlocks (every minute). Both claim rows with
 * SKIP LOCKED, so any number of instances may run them at once without doing anything twice.
 */
@Injectable()
export class DeviceJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeviceJobs');
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dealState: DealStateService,
    private readonly commands: DeviceCommandsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.jobsEnabled) return;
    const every = (ms: number, job: () => Promise<number>, name: string) => {
      const timer = setInterval(() => void job().catch((e: Error) => this.logger.warn(`${name} failed: ${e.message}`)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.config.overdueCheckMinutes * 60_000, () => this.lockOverdue(), 'overdue run');
    every(60_000, () => this.endTemporaryUnlocks(), 'temporary-unlock run');
  }

  onModuleDestroy(): void {
    this.timers.forEach(clearInterval);
  }

  /** Locks every overdue unlocked deal, in batches; returns how many. */
  async lockOverdue(): Promise<number> {
    let total = 0;
    for (let n = BATCH; n === BATCH; total += n) n = await this.dataSource.transaction((em) => this.dealState.lockOverdue(em, BATCH));
    if (total) this.logger.log(`locked ${total} overdue deals`);
    return total;
  }

  /** Pushes the real state to devices whose temporary unlock is over; returns how many. */
  async endTemporaryUnlocks(): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const expired = await this.commands.claimExpiredTempUnlocks(em, this.clock.now(), BATCH);
      for (const t of expired) {
        await this.dealState.restoreRealState(em, t.customer_id);
        await this.commands.markRestored(em, t.id);
      }
      return expired.length;
    });
  }
}
