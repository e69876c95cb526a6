import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { businessDay } from '../../../common/time/business-date.js';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { MobileMoneyProvider } from '../infrastructure/mobile-money-provider.js';
import { MobileMoneyService } from './mobile-money.service.js';

const JOB = 'mobile-money-lookup';
const LOCK = 72_201_002;

/**
 * Every MOBILE_MONEY_LOOKUP_MINUTES: look up the last two days at the provider, because providers
 * such as MTN MoMo post a callback once and never retry. Off without a provider. One instance at a
 * time runs it (advisory lock); running it twice would change nothing anyway.
 */
@Injectable()
export class LookupJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LookupJob');
  private running = false;

  constructor(
    private readonly mobileMoney: MobileMoneyService,
    private readonly provider: MobileMoneyProvider,
    private readonly scheduler: SchedulerRegistry,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.jobsEnabled || !this.provider.configured || this.config.mobileMoneyLookupMinutes === 0) return;
    const timer = setInterval(() => void this.run(), this.config.mobileMoneyLookupMinutes * 60_000);
    timer.unref();
    this.scheduler.addInterval(JOB, timer);
  }

  onModuleDestroy(): void {
    if (this.scheduler.doesExist('interval', JOB)) this.scheduler.deleteInterval(JOB);
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [LOCK])) as Array<{ locked: boolean }>;
      if (!locked) return;
      try {
        const answer = await this.mobileMoney.lookupRecent(businessDay(this.clock.now(), this.config.businessTimeZone));
        if (answer.applied || answer.unmatched) this.logger.log(`look-up: ${JSON.stringify(answer)}`);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      }
    } catch (error) {
      this.logger.warn(`look-up failed: ${(error as Error).message}`);
    } finally {
      await runner.release();
      this.running = false;
    }
  }
}
