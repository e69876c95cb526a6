import type pg from 'pg';
import type { TestApp } from './test-app.js';

/**
 * How many sessions of the test's database wait for a lock now. Read on the app's own connections:
 * inside a transaction, pg_stat_activity keeps answering what it answered first (PostgreSQL takes
 * one snapshot of it per transaction), so a blocker polling it from its own transaction can wait for ever.
 */
export async function lockWaits(t: TestApp): Promise<number> {
  const [{ n }] = (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as Array<{ n: number }>;
  return n;
}

/** Until at least `n` sessions wait for a lock; throws after `timeoutMs`. */
export async function untilLockWaits(t: TestApp, n: number, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; (await lockWaits(t)) < n; await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`${n} transactions never waited`);
  }
}

/**
 * Makes two requests meet where they write their device commands: `blocker` holds a SHARE lock on
 * device_commands (an INSERT waits, the delivery worker's reads do not); `first` runs until it waits
 * there, then `second` until it waits too (there or behind `first`), and then both go on.
 */
export async function meetAtCommands<A, B>(t: TestApp, blocker: pg.Client, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  await blocker.query('BEGIN');
  await blocker.query('LOCK TABLE device_commands IN SHARE MODE');
  const a = first();
  await untilLockWaits(t, 1);
  const b = second();
  await untilLockWaits(t, 2);
  await blocker.query('COMMIT');
  return Promise.all([a, b]);
}
