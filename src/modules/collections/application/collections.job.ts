import { Injectable, Logger } from '@nestjs/common';
import { Scheduled, SOON_AFTER_START_MS } from '../../../common/jobs/job-scheduler.js';
import { CollectionsService } from './collections.service.js';

/**
 * Opens the day's collection calls every COLLECTIONS_GENERATE_MINUTES (a day by default; 0 = off),
 * and once soon after start so a deployment does not push the next run a day away. Generation is
 * idempotent and race-free, so every instance may run it.
 */
@Injectable()
export class CollectionsJob {
  private readonly logger = new Logger('CollectionsJob');

  constructor(private readonly collections: CollectionsService) {}

  @Scheduled('collection-calls', (config) => {
    const everyMs = config.collectionsGenerateMinutes * 60_000;
    return { everyMs, firstAfterMs: Math.min(SOON_AFTER_START_MS, everyMs) };
  })
  async run(): Promise<void> {
    const { opened, refreshed } = await this.collections.generate();
    if (opened || refreshed) this.logger.log(`collection calls: ${opened} opened, ${refreshed} refreshed`);
  }
}
