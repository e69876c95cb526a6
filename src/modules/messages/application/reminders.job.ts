import { Injectable, Logger } from '@nestjs/common';
import { Scheduled } from '../../../common/jobs/job-scheduler.js';
import { MessagesService } from './messages.service.js';

/** Soon after start: one indexed read, idempotent, so there is nothing to wait for. */
const FIRST_RUN_DELAY_MS = 5_000;
const EVERY_MS = 3_600_000;

/**
 * Writes the day's payment reminders every hour (and 5 s after start). Idempotent and race-free
 * (unique key per deal, due date and offset), so every instance may run it; an hourly run catches
 * the day's reminders whatever time an instance started.
 */
@Injectable()
export class RemindersJob {
  private readonly logger = new Logger('Reminders');

  constructor(private readonly messages: MessagesService) {}

  @Scheduled('sms-reminders', () => ({ everyMs: EVERY_MS, firstAfterMs: FIRST_RUN_DELAY_MS }))
  async run(): Promise<number> {
    const queued = await this.messages.queueReminders();
    if (queued) this.logger.log(`${queued} payment reminders queued`);
    return queued;
  }
}
