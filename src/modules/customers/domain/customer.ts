import { conflict, invalid, notFound } from '../../../common/errors/domain-error.js';
import { normaliseTelephone } from '../../../common/identifiers/telephone.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

export const CustomerStatus = stringEnum('PENDING', 'APPROVED', 'REPOSSESSED');
export type CustomerStatus = EnumValue<typeof CustomerStatus>;

export const CUSTOMER_STATUSES = Object.values(CustomerStatus);

export const SalesStage = stringEnum('ENROLLMENT', 'VERIFICATION', 'DELIVERY', 'ACTIVE', 'CLOSED');
export type SalesStage = EnumValue<typeof SalesStage>;

/** Who a customer is and which device they hold, as registration records it (normalised: DESIGN part 10). */
export interface CustomerIdentity {
  fullname: string;
  telephone: string;
  guarantorname: string;
  guarantorcontact: string;
  imei: string;
  payg: string;
}

export const SALES_STAGES = Object.values(SalesStage);

/** PENDING → APPROVED is the only approval; any other starting status is a conflict. */
export function approve(status: CustomerStatus, customerId: number): CustomerStatus {
  if (status !== CustomerStatus.PENDING) {
    throw conflict('CUSTOMER_NOT_PENDING', `Customer ${customerId} is ${status}; only a PENDING customer can be approved.`);
  }
  return CustomerStatus.APPROVED;
}

export const customerNotFound = (id: number) => notFound('CUSTOMER_NOT_FOUND', `Customer ${id} not found.`);
export const accountNotFound = (what: string) => notFound('ACCOUNT_NOT_FOUND', `Account ${what} not found.`);

/**
 * The customer's and the guarantor's numbers in E.164, read with the configured default country;
 * a number that is not valid there is a 400 naming every such field.
 */
export function telephonesOf<T extends { telephone: string; guarantorcontact: string }>(input: T, defaultCountry: string): T {
  const telephone = normaliseTelephone(input.telephone, defaultCountry);
  const guarantorcontact = normaliseTelephone(input.guarantorcontact, defaultCountry);
  const problems = [
    ...(telephone ? [] : ['telephone']),
    ...(guarantorcontact ? [] : ['guarantorcontact']),
  ].map((field) => `${field} must be a valid telephone number: with its country code (+256772555001) or as dialled in ${defaultCountry}`);
  if (problems.length > 0) throw invalid('TELEPHONE_INVALID', problems.join('; '));
  return { ...input, telephone: telephone!, guarantorcontact: guarantorcontact! };
}

/** Which unique key a registration ran into, in the operator's words. */
export function duplicateRegistration(constraint: string | undefined, input: { telephone: string; imei: string; payg: string }) {
  switch (constraint) {
    case 'customer_deals_imei_active_key':
      return conflict('IMEI_TAKEN', `IMEI ${input.imei} is already registered to another customer.`);
    case 'customers_payg_lower_key':
      return conflict('PAYG_TAKEN', `PAYG code ${input.payg} is already assigned to another customer.`);
    case 'customers_telephone_key':
    case 'users_username_key':
      return conflict('TELEPHONE_TAKEN', `Telephone ${input.telephone} is already registered.`);
    default:
      return undefined;
  }
}
