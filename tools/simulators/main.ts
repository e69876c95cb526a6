import { startLockSimulator } from './lock-simulator.js';
import { startProviderSimulator } from './provider-simulator.js';

/** `npm run simulators`: the mobile-money provider and the device-lock platform on this machine. */
async function main(): Promise<void> {
  const providerKey = process.env.PROVIDER_SIM_KEY ?? 'sim-key';
  const lockKey = process.env.LOCK_SIM_KEY ?? 'sim-key';
  const provider = await startProviderSimulator({ port: Number(process.env.PROVIDER_SIM_PORT ?? 4010), apiKey: providerKey });
  const lock = await startLockSimulator({ port: Number(process.env.LOCK_SIM_PORT ?? 4020), apiKey: lockKey });
  console.log(`mobile-money provider simulator: ${provider.url}  → MOBILE_MONEY_API_URL=${provider.url} MOBILE_MONEY_API_KEY=${providerKey}`);
  console.log(`  add a transaction: curl -X POST ${provider.url}/_control/transactions -H 'content-type: application/json' -d '{"id":"TX1","amount":45000,"tag":"PAYG-1","status":"SUCCESS"}'`);
  console.log(`device-lock platform simulator:  ${lock.url}  → DEVICE_LOCK_API_URL=${lock.url} DEVICE_LOCK_API_KEY=${lockKey}`);
  console.log(`  see devices: curl ${lock.url}/_control/state   fail for a while: curl -X POST ${lock.url}/_control/down -d '{"down":true}'`);
  const stop = async () => {
    await Promise.all([provider.close(), lock.close()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
