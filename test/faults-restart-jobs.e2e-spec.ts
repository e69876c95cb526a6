import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { seedOverdueDeals, setUpBusiness, waitUntil, withClient } from './support/faults.js';
import { Instance, startInstance } from './support/instances.js';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * The overdue run and the provider look-up ran first a whole period after start (15 minutes by
 * default): a service restarted more often than that (killed and brought back, a crash loop, one
 * deployment after another) never locked an overdue device and never looked up a payment whose only
 * callback was lost, the one sent while it was down included. Both now run soon after start too,
 * as collections do.
 */
describe('Scheduled runs after a restart', () => {
  let databaseUrl: string;
  let provider: ProviderSimulator;
  let instance: Instance | undefined;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    provider = await startProviderSimulator({ apiKey: 'mm-key' });
  });
  afterAll(async () => {
    await instance?.stop('SIGKILL');
    await provider?.close();
    await dropTestDatabase(databaseUrl);
  });

  it('locks overdue deals and looks up missed payments within a minute of a restart, with the default periods', async () => {
    const env = { JOBS_ENABLED: 'true', MOBILE_MONEY_API_URL: provider.url, MOBILE_MONEY_API_KEY: 'mm-key' }; // OVERDUE_CHECK_MINUTES, MOBILE_MONEY_LOOKUP_MINUTES: 15
    instance = await startInstance(databaseUrl, env);
    const { dealid, customers } = await setUpBusiness([instance.url], 1, 'RST');
    const overdue = await seedOverdueDeals(databaseUrl, dealid, 3, 'RSO');
    await instance.stop('SIGKILL');
    // while it was down: a payment whose callback never came (the provider posted it once, to nobody)
    provider.addTransaction({ id: 'RST-MISSED-1', amount: 45000, tag: customers[0].payg, status: 'SUCCESS' });

    instance = await startInstance(databaseUrl, env);
    const state = () =>
      withClient(databaseUrl, async (c) => {
        const { rows: [r] } = await c.query(
          `SELECT (SELECT count(*) FROM customer_deals WHERE customer_id = ANY($1) AND status = 'LOCKED')::int AS locked,
                  (SELECT count(*) FROM payments WHERE reference = 'RST-MISSED-1')::int AS missed`,
          [overdue.map((o) => o.customerid)],
        );
        return r as { locked: number; missed: number };
      });
    await waitUntil('the overdue deals locked and the missed payment credited', async () => {
      const s = await state();
      return s.locked === 3 && s.missed === 1;
    }, 75_000, 500).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await state())}`);
    });
  }, 180_000);
});
