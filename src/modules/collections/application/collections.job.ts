import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobScheduler } from '../../../common/jobs/job-scheduler.js';
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
export class CollectionsJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('CollectionsJob');

  constructor(
    private readonly collections: CollectionsService,
    private readonly jobs: JobScheduler,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.collectionsGenerateMinutes * 60_000;
    this.jobs.schedule({ name: 'collection-calls', everyMs, firstAfterMs: Math.min(FIRST_RUN_DELAY_MS, everyMs), run: () => this.run() });
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
