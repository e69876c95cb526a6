import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { CollectionsService } from './collections.service.js';

/** Lets a just-started instance settle before its first run. */
const FIRST_RUN_DELAY_MS = 30_000;

/**
 * Opens the day's collection calls every COLLECTIONS_GENERATE_MINUTES (a day by default; 0 = off),
 * and once soon after start so a deployment does not push the next run a day away. Generation is
 * idempotent and race-free, so every instance may run it.
 */
@Injectable()
export class CollectionsJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CollectionsJob');
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly collections: CollectionsService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const minutes = this.config.collectionsGenerateMinutes;
    if (!this.config.jobsEnabled || minutes === 0) return;
    const first = setTimeout(() => void this.run(), Math.min(FIRST_RUN_DELAY_MS, minutes * 60_000));
    const every = setInterval(() => void this.run(), minutes * 60_000);
    first.unref();
    every.unref();
    this.timers.push(first, every);
  }

  onModuleDestroy(): void {
    this.timers.forEach((t) => clearTimeout(t));
  }

  async run(): Promise<void> {
    try {
      const { opened, refreshed } = await this.collections.generate();
      if (opened || refreshed) this.logger.log(`collection calls: ${opened} opened, ${refreshed} refreshed`);
    } catch (error) {
      this.logger.warn(`collection-call generation failed: ${(error as Error).message}`);
    }
  }
}
