import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Scheduled } from '../../../common/jobs/job-scheduler.js';
import { OutboxRounds } from '../../../common/jobs/outbox-rounds.js';
import { retryDelayAsked } from '../../../common/http/outbound.js';
import { retryDelayMs } from '../domain/device-command.js';
import { CommandRow, DeviceCommandsRepository } from '../infrastructure/device-commands.repository.js';
import { LockPlatform, LockPlatformError, PlatformCommand } from '../infrastructure/lock-platform.js';

const BATCH = 20;

export function platformCommand(row: CommandRow): PlatformCommand {
  return {
    commandid: row.commandid,
    imei: row.imei,
    serialnumber: row.serialnumber,
    payg: row.payg,
    action: row.action,
    nextpaymentdate: row.nextpaymentdate,
    unlockuntil: row.unlockuntil ? new Date(row.unlockuntil).toISOString() : null,
  };
}

/**
 * Delivers pending commands to the lock platform. Each round claims the due head command of up to
 * 20 devices with FOR UPDATE SKIP LOCKED, sends them, and records the outcome in the same
 * transaction: any number of instances can run it, none sends a command another is sending, and a
 * crash before the commit leaves the command pending, to be sent again (at least once; the
 * platform drops repeats by commandid).
 */
@Injectable()
export class DeliveryWorker implements OnModuleDestroy {
  private readonly logger = new Logger('DeviceCommands');
  private readonly rounds = new OutboxRounds(this.logger, 'delivery round', () => this.platform.configured, () => this.round());

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly commands: DeviceCommandsRepository,
    private readonly platform: LockPlatform,
  ) {}

  /** Stops the rounds and waits for the one under way, so no outcome is lost with the pool. */
  onModuleDestroy(): Promise<void> {
    return this.rounds.stop();
  }

  /** Rounds until nothing is due. */
  @Scheduled('outbox-delivery', (config) => ({ everyMs: config.outboxPollMs }))
  drain(): Promise<number> {
    return this.rounds.drain();
  }

  /** One round; returns how many commands were claimed. Never runs twice at once in one process. */
  runOnce(): Promise<number> {
    return this.rounds.once();
  }

  private round(): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const due = await this.commands.claimDue(em, BATCH);
      // sent side by side; the outcomes written one after another, as a transaction's client takes its queries
      const sent = await Promise.all(
        due.map((row) =>
          this.platform.send(platformCommand(row)).then(
            () => null,
            (error: Error) => error,
          ),
        ),
      );
      for (const [i, row] of due.entries()) {
        const error = sent[i];
        if (error === null) {
          await this.commands.markDelivered(em, row.id);
          continue;
        }
        // the backoff, or longer when the platform asked for longer (429 or 503 with Retry-After)
        const delay = retryDelayAsked(retryDelayMs(row.attempts + 1), error instanceof LockPlatformError ? error.retryAfterMs : null);
        await this.commands.markFailed(em, row.id, error.message, delay);
        this.logger.warn(`command ${row.commandid} (${row.action}) not delivered, attempt ${row.attempts + 1}: ${error.message}; retry in ${delay} ms`);
      }
      return due.length;
    });
  }
}
