import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';

/**
 * The first run of a periodic job that must not wait a whole period after start (nor never come, for a
 * service restarted more often than that), once a just-started instance has settled.
 */
export const SOON_AFTER_START_MS = 30_000;

export interface JobTiming {
  /** How often; 0 (or less) never. */
  everyMs: number;
  /** The first run, when it must come sooner than `everyMs` after start. */
  firstAfterMs?: number;
  /** Work a user asked for (an import), run even with JOBS_ENABLED=false. */
  evenWhenJobsDisabled?: boolean;
}

export interface Job extends JobTiming {
  /** Unique in the service; also the logger's name. */
  name: string;
  /** One run; what it answers is not used. A failure is logged and the next run comes as planned. */
  run: () => Promise<unknown>;
}

interface ScheduledMethod {
  name: string;
  timing: (config: AppConfig) => JobTiming;
}

const SCHEDULED = 'payg:scheduled-job';

/**
 * Marks a provider's method as a scheduled job, run by JobScheduler on a timer whose period comes from
 * the configuration (which @nestjs/schedule's own decorators cannot take). The method takes no
 * arguments; tests call it directly instead of waiting for the timer.
 */
export const Scheduled = (name: string, timing: (config: AppConfig) => JobTiming): MethodDecorator =>
  SetMetadata<string, ScheduledMethod>(SCHEDULED, { name, timing });

/**
 * The one way the service runs work on a timer: every scheduled job and worker (overdue lock,
 * temporary-unlock end, mobile-money look-up, collection calls, reminders, outbox delivery) is a
 * method marked `@Scheduled`, found here at start-up and timed on @nestjs/schedule's registry, with
 * the same rules: nothing when JOBS_ENABLED=false, timers that do not keep the process alive, no run
 * started while the previous one of the same job is still going, a failure logged, and every timer
 * cleared when the application closes. Time inside a run comes from the injectable Clock.
 */
@Injectable()
export class JobScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly names = new Set<string>();
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (!instance || typeof instance !== 'object') continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const run = (instance as Record<string, () => Promise<unknown>>)[method];
        const marked = this.reflector.get<ScheduledMethod | undefined>(SCHEDULED, run);
        if (marked) this.schedule({ name: marked.name, ...marked.timing(this.config), run: () => run.call(instance) });
      }
    }
  }

  private schedule(job: Job): void {
    if ((!this.config.jobsEnabled && !job.evenWhenJobsDisabled) || !(job.everyMs > 0)) return;
    if (this.names.has(job.name)) throw new Error(`Two scheduled jobs are named ${job.name}`);
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
