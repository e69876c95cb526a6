import { Injectable } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { loadConfig } from '../../config/app-config.js';
import { CoreModule } from '../core.module.js';
import { Scheduled } from './job-scheduler.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
class Counter {
  runs = 0;
  concurrent = 0;
  most = 0;

  @Scheduled('counter', (config) => ({ everyMs: config.outboxPollMs, firstAfterMs: 1 }))
  async tick(): Promise<void> {
    this.runs++;
    this.most = Math.max(this.most, ++this.concurrent);
    await sleep(60);
    this.concurrent--;
    if (this.runs === 2) throw new Error('a failing run');
  }

  asked = 0;

  @Scheduled('asked-for', () => ({ everyMs: 100, firstAfterMs: 1, evenWhenJobsDisabled: true }))
  async askedFor(): Promise<void> {
    this.asked++;
  }

  @Scheduled('never', () => ({ everyMs: 0 }))
  async never(): Promise<void> {
    throw new Error('must not run');
  }
}

async function start(env: Record<string, string>) {
  const config = loadConfig({ JWT_SECRET: 'x'.repeat(40), OUTBOX_POLL_MS: '100', ...env });
  const app = await Test.createTestingModule({ imports: [ScheduleModule.forRoot(), CoreModule.forRoot(config)], providers: [Counter] }).compile();
  await app.init();
  return { app, counter: app.get(Counter) };
}

describe('JobScheduler and @Scheduled', () => {
  it('runs a marked method on its configured period, never two runs at once, through a failing run', async () => {
    const { app, counter } = await start({});
    for (let waited = 0; counter.runs < 4 && waited < 8000; waited += 10) await sleep(10);
    await app.close();
    expect(counter.runs).toBeGreaterThanOrEqual(4);
    expect(counter.most).toBe(1);
  });

  it('runs nothing once the application is closed', async () => {
    const { app, counter } = await start({});
    await app.close();
    const runs = counter.runs;
    await sleep(250);
    expect(counter.runs).toBe(runs);
  });

  it('runs nothing when JOBS_ENABLED=false but the work a user asked for', async () => {
    const { app, counter } = await start({ JOBS_ENABLED: 'false' });
    await sleep(250);
    await app.close();
    expect(counter.runs).toBe(0);
    expect(counter.asked).toBeGreaterThan(0);
  });
});
