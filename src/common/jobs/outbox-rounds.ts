import { Logger } from '@nestjs/common';

/**
 * The rounds of an outbox worker (device commands, SMS). A round claims a batch of due rows and
 * answers how many it claimed. One round at a time in a process: a second caller shares the round
 * under way. `drain` repeats rounds until one claims nothing; `stop` lets no further round of the
 * drain start and waits for the one under way, so no outcome is lost with the pool. A failed round
 * is logged and counts as nothing claimed; its rows stay due for the next one.
 */
export class OutboxRounds {
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly name: string,
    /** False while the outside platform is not configured: no round runs. */
    private readonly ready: () => boolean,
    private readonly round: () => Promise<number>,
  ) {}

  /** Rounds until one claims nothing; answers how many rows were claimed in all. */
  async drain(): Promise<number> {
    let total = 0;
    for (let claimed = 1; claimed > 0 && !this.stopped; ) {
      claimed = await this.once();
      total += claimed;
    }
    return total;
  }

  /** One round; answers how many rows it claimed. */
  once(): Promise<number> {
    if (!this.ready()) return Promise.resolve(0);
    this.running ??= this.round()
      .catch((error: unknown) => {
        this.logger.warn(`${this.name} failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }
}
