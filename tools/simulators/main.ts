import { startLockSimulator } from './lock-simulator.js';
import { startProviderSimulator } from './provider-simulator.js';
import { startSmsSimulator } from './sms-simulator.js';

/** `npm run simulators`: the mobile-money provider, the device-lock platform and the SMS gateway on this machine. */
async function main(): Promise<void> {
  const providerKey = process.env.PROVIDER_SIM_KEY ?? 'sim-key';
  const lockKey = process.env.LOCK_SIM_KEY ?? 'sim-key';
  const provider = await startProviderSimulator({ port: Number(process.env.PROVIDER_SIM_PORT ?? 4010), apiKey: providerKey });
  const lock = await startLockSimulator({ port: Number(process.env.LOCK_SIM_PORT ?? 4020), apiKey: lockKey });
  console.log(`mobile-money provider simulator: ${provider.url}  → MOBILE_MONEY_API_URL=${provider.url} MOBILE_MONEY_API_KEY=${providerKey}`);
  console.log(`  add a transaction: curl -X POST ${provider.url}/_control/transactions -H 'content-type: application/json' -d '{"id":"TX1","amount":45000,"tag":"PAYG-1","status":"SUCCESS"}'`);
  console.log(`device-lock platform simulator:  ${lock.url}  → DEVICE_LOCK_API_URL=${lock.url} DEVICE_LOCK_API_KEY=${lockKey}`);
  console.log(`  see devices: curl ${lock.url}/_control/state   fail for a while: curl -X POST ${lock.url}/_control/down -H 'content-type: application/json' -d '{"down":true}'`);
  const smsKey = process.env.SMS_SIM_KEY ?? 'sim-key';
  const callbackKey = process.env.SMS_SIM_CALLBACK_KEY ?? 'sim-callback-key-0123456789';
  const service = process.env.SMS_SIM_SERVICE_URL ?? 'http://127.0.0.1:3000';
  // one message in ten fails its delivery report, one report in five comes a few seconds late
  const sms = await startSmsSimulator({ port: Number(process.env.SMS_SIM_PORT ?? 4030), apiKey: smsKey, username: 'sandbox', callbackUrl: `${service}/sms/delivery-reports?key=${callbackKey}`, failRate: 0.1 });
  sms.setReportDelay(500, 5, 5000);
  console.log(`SMS gateway simulator (Africa's Talking API): ${sms.url}  → SMS_API_URL=${sms.url} SMS_USERNAME=sandbox SMS_API_KEY=${smsKey} SMS_CALLBACK_KEY=${callbackKey}`);
  console.log(`  delivery reports go to ${service}/sms/delivery-reports   see messages: curl ${sms.url}/_control/state   reject a number: curl -X POST ${sms.url}/_control/reject -H 'content-type: application/json' -d '{"number":"+256772555001"}'`);
  const stop = async () => {
    await Promise.all([provider.close(), lock.close(), sms.close()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
