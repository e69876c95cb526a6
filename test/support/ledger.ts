import { businessDay } from '../../src/common/time/business-date.js';
import { LedgerVerifier } from '../../src/modules/contracts/application/ledger-verifier.js';
import type { TestApp } from './test-app.js';

/** The ledger check every money test ends with: every deal equals what its payment rows imply. */
export async function expectLedgerConsistent(t: TestApp): Promise<void> {
  const report = await t.app.get(LedgerVerifier).verify(businessDay(t.clock.now(), 'UTC'));
  expect(report.differences).toEqual([]);
}
