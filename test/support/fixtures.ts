import { randomBytes } from 'node:crypto';
import { Role } from '../../src/common/auth/role.js';
import type { TestApp } from './test-app.js';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomBytes(2).toString('hex')}`;

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
  const digits = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  return {
    fullname: `Customer ${n}`,
    telephone: `2567${digits}`,
    dealid,
    deposit: 60000,
    guarantorname: 'Joseph Okello',
    guarantorcontact: '256701987654',
    imei: `35${digits}${String(seq).padStart(4, '0')}`.slice(0, 15),
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
