import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';

export interface Job {
  /** Unique in the service; also the logger's name. */
  name: string;
  /** How often; 0 (or less) never. */
  everyMs: number;
  /** The first run, when it must come sooner than `everyMs` after start. */
  firstAfterMs?: number;
  /** One run; what it answers is not used. A failure is logged and the next run comes as planned. */
  run: () => Promise<unknown>;
}

/**
 * The one way the service runs work on a timer: every scheduled job and worker (overdue lock,
 * temporary-unlock end, mobile-money look-up, collection calls, outbox delivery) is scheduled here,
 * on @nestjs/schedule's registry, with the same rules: nothing when JOBS_ENABLED=false, timers that do
 * not keep the process alive, no run started while the previous one of the same job is still going,
 * a failure logged, and every timer cleared when the application closes. Time inside a run comes from the injectable
 * Clock; the tests call the jobs' run methods directly instead of waiting for a timer.
 */
@Injectable()
export class JobScheduler implements OnModuleDestroy {
  private readonly names = new Set<string>();
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
  ) {}

  schedule(job: Job): void {
    if (!this.config.jobsEnabled || !(job.everyMs > 0)) return;
    const logger = new Logger(job.name);
    const tick = () => void this.runOnce(job, logger);
    const interval = setInterval(tick, job.everyMs);
    interval.unref();
    this.registry.addInterval(job.name, interval);
    this.names.add(job.name);
    if (job.firstAfterMs !== undefined && job.firstAfterMs < job.everyMs) {
      const first = setTimeout(tick, job.firstAfterMs);
      first.unref();
      this.registry.addTimeout(`${job.name}:first`, first);
    }
  }

  private runOnce(job: Job, logger: Logger): Promise<unknown> {
    let run = this.running.get(job.name);
    if (!run) {
      run = job
        .run()
        .catch((error: unknown) => logger.warn(`${job.name} failed: ${(error as Error).message}`))
        .finally(() => this.running.delete(job.name));
      this.running.set(job.name, run);
    }
    return run;
  }

  /** Clears the timers: no run starts once the application closes (a worker waits for its own run under way). */
  onModuleDestroy(): void {
    for (const name of this.names) {
      if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
      if (this.registry.doesExist('timeout', `${name}:first`)) this.registry.deleteTimeout(`${name}:first`);
    }
    this.names.clear();
  }
}
