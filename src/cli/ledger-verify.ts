import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import { businessDay } from '../common/time/business-date.js';
import { LedgerVerifier } from '../modules/contracts/application/ledger-verifier.js';
import { ContractsRepository } from '../modules/contracts/infrastructure/contracts.repository.js';
import { resolveDatabase } from './database-url.js';

/**
 * `npm run ledger:verify`: rebuilds every deal from the payment ledger and reports any difference.
 * Exit code 0 when the ledger and the deals agree, 1 otherwise. Uses DATABASE_URL or the embedded database.
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const { url, embedded } = await resolveDatabase(config);
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  try {
    const report = await new LedgerVerifier(new ContractsRepository(dataSource)).verify(businessDay(new Date(), config.businessTimeZone));
    console.log(JSON.stringify({ deals: report.deals, payments: report.payments, ledgertotal: report.ledgertotal, differences: report.differences.length }));
    for (const d of report.differences.slice(0, 100)) console.log(JSON.stringify(d));
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    await dataSource.destroy();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(2);
  },
);
