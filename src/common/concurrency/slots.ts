import { DomainError, ErrorKind } from '../errors/domain-error.js';

/**
 * At most `max` pieces of one kind of work at once in this process (exports, import validations: each
 * holds a database connection while it runs); one more is refused with 429 and `busyMessage`.
 */
export class Slots {
  private taken = 0;

  constructor(
    private readonly max: number,
    private readonly busyCode: string,
    private readonly busyMessage: string,
  ) {}

  /** Takes a place, or throws RATE_LIMITED; answers the release, which gives the place back once however often it is called. */
  take(): () => void {
    if (this.taken >= this.max) throw new DomainError(ErrorKind.RATE_LIMITED, this.busyCode, this.busyMessage);
    this.taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken--;
    };
  }
}
