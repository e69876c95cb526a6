import { Injectable } from '@nestjs/common';
import { hash, parseOptions, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { availableParallelism } from 'node:os';

/**
 * argon2id with OWASP's first recommended parameters (19 MiB, 2 passes, 1 lane). @node-rs/argon2
 * runs hash and verify on libuv's thread pool, off the event loop.
 */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;
/** Algorithm.Argon2id (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;
const BCRYPT_PREFIX = /^\$2[aby]\$/;

/**
 * At most this many argon2 computations at once (one core less than the machine has, at least one):
 * they run off the event loop, but each takes a core and 19 MiB, and a flood of sign-ins from many
 * addresses must leave a core to the requests already admitted. The rest wait their turn.
 */
const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export interface PasswordCheck {
  ok: boolean;
  /** true when the stored hash is older than the current policy (bcrypt, other argon2 parameters) */
  needsRehash: boolean;
}

@Injectable()
export class PasswordHasher {
  /** A real argon2id hash to verify against when there is no user or no hash, so every failure costs the same. */
  private readonly decoy: Promise<string> = hash('decoy-password-never-used', ARGON2);
  private readonly turns = new Turns(CONCURRENT_HASHES);

  hash(password: string): Promise<string> {
    return this.turns.run(() => hash(password, ARGON2));
  }

  async verify(password: string, stored: string | null): Promise<PasswordCheck> {
    if (!stored) {
      const decoy = await this.decoy;
      await this.turns.run(() => verify(decoy, password)).catch(() => false);
      return { ok: false, needsRehash: false };
    }
    // Hashes from before argon2id: bcryptjs still checks them (on the event loop, once per user:
    // a successful sign-in replaces the hash).
    if (BCRYPT_PREFIX.test(stored)) return { ok: await bcrypt.compare(password, stored), needsRehash: true };
    const ok = await this.turns.run(() => verify(stored, password)).catch(() => false);
    return { ok, needsRehash: ok && !PasswordHasher.current(stored) };
  }

  private static current(stored: string): boolean {
    const o = parseOptions(stored);
    return o.algorithm === ARGON2ID && o.memoryCost === ARGON2.memoryCost && o.timeCost === ARGON2.timeCost && o.parallelism === ARGON2.parallelism && o.outputLen === ARGON2.outputLen;
  }
}
