import { randomBytes, randomInt } from 'node:crypto';
import { Role } from '../../src/common/auth/role.js';
import { luhnCheckDigit } from '../../src/common/identifiers/imei.js';
import type { TestApp } from './test-app.js';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomBytes(2).toString('hex')}`;

// Telephones and IMEIs count up from a random start, so they never repeat within a test file (whose database is its own).
const telephoneStart = randomInt(0, 5_000_000);
const imeiStart = randomInt(0, 50_000_000_000);
let identifiers = 0;

/** A valid Ugandan mobile number in E.164 (+25677xxxxxxx), a new one at every call. */
export const uniqueTelephone = (): string => `+25677${String((telephoneStart + ++identifiers) % 10_000_000).padStart(7, '0')}`;

/** A valid IMEI (15 digits, the last the Luhn check digit), a new one at every call. */
export function uniqueImei(): string {
  const body = `35${String((imeiStart + ++identifiers) % 1_000_000_000_000).padStart(12, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

export const dealBody = (over: Partial<Record<string, unknown>> = {}) => ({
  dealname: `Phone deal ${unique()}`,
  totalamount: 600000,
  deposit: 60000,
  monthly: 45000,
  months: 12,
  ...over,
});

export async function createDeal(t: TestApp, over: Partial<Record<string, unknown>> = {}): Promise<{ dealid: number } & Record<string, unknown>> {
  const res = await t.http.post('/finance/deals/create').set('x-access-token', await t.token(Role.ADMIN)).send(dealBody(over));
  if (res.status !== 201) throw new Error(`deal not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function registrationBody(dealid: number, over: Partial<Record<string, unknown>> = {}) {
  const n = unique();
  return {
    fullname: `Customer ${n}`,
    telephone: uniqueTelephone(),
    dealid,
    deposit: 60000,
    guarantorname: 'Joseph Okello',
    guarantorcontact: '+256701987654',
    imei: uniqueImei(),
    payg: `PAYG-${n}`.toUpperCase(),
    ...over,
  };
}

export async function registerCustomer(t: TestApp, dealid: number, over: Partial<Record<string, unknown>> = {}) {
  const body = registrationBody(dealid, over);
  const res = await t.http.post('/finance/customers/register').set('x-access-token', await t.token(Role.OPERATOR)).send(body);
  if (res.status !== 201) throw new Error(`customer not registered: ${res.status} ${JSON.stringify(res.body)}`);
  return { customerid: res.body.customerid as number, ...body };
}
