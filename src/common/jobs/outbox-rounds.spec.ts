import { Logger } from '@nestjs/common';
import { OutboxRounds } from './outbox-rounds.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An outbox of `due` rows, claimed `batch` at a time, each round taking `ms`. */
function outbox(due: number, batch = 3, ms = 5) {
  const seen = { rounds: 0, concurrent: 0, most: 0, warnings: [] as string[] };
  const logger = { warn: (text: string) => seen.warnings.push(text) } as unknown as Logger;
  let ready = true;
  let failNext = false;
  const rounds = new OutboxRounds(logger, 'test round', () => ready, async () => {
    seen.rounds++;
    seen.most = Math.max(seen.most, ++seen.concurrent);
    await sleep(ms);
    seen.concurrent--;
    if (failNext) {
      failNext = false;
      throw new Error('connection lost');
    }
    const claimed = Math.min(batch, due);
    due -= claimed;
    return claimed;
  });
  return { rounds, seen, setReady: (r: boolean) => (ready = r), failOnce: () => (failNext = true), left: () => due };
}

describe('OutboxRounds', () => {
  it('drains in rounds until one claims nothing, and answers the total', async () => {
    const o = outbox(7);
    expect(await o.rounds.drain()).toBe(7);
    expect(o.seen.rounds).toBe(4);
    expect(o.left()).toBe(0);
  });

  it('never runs two rounds at once: a second caller shares the round under way', async () => {
    const o = outbox(7);
    const [a, b] = await Promise.all([o.rounds.once(), o.rounds.once()]);
    expect([a, b]).toEqual([3, 3]);
    expect(o.seen.rounds).toBe(1);
    await Promise.all([o.rounds.drain(), o.rounds.drain(), o.rounds.once()]);
    expect(o.seen.most).toBe(1);
    expect(o.left()).toBe(0);
  });

  it('runs no round while its platform is not configured', async () => {
    const o = outbox(5);
    o.setReady(false);
    expect(await o.rounds.drain()).toBe(0);
    expect(o.seen.rounds).toBe(0);
  });

  it('logs a failed round, counts it as nothing claimed, and the rows stay due', async () => {
    const o = outbox(2);
    o.failOnce();
    expect(await o.rounds.once()).toBe(0);
    expect(o.seen.warnings).toEqual(['test round failed: connection lost']);
    expect(await o.rounds.drain()).toBe(2);
  });

  it('stop waits for the round under way and lets the drain start no other', async () => {
    const o = outbox(30, 3, 20);
    const draining = o.rounds.drain();
    await sleep(5);
    await o.rounds.stop();
    expect(o.seen.concurrent).toBe(0);
    const claimed = await draining;
    expect(claimed).toBe(3);
    expect(o.left()).toBe(27);
  });
});
