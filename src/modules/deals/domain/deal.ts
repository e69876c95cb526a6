import { conflict, invalid, notFound } from '../../../common/errors/domain-error.js';
import { Money } from '../../../common/money/money.js';

export interface DealTerms {
  totalamount: Money;
  deposit: Money;
  monthly: Money;
  months: number;
}

/** A catalogue deal must be payable: the deposit fits in the price and the instalments cover the rest. */
export function checkDealTerms(terms: DealTerms): void {
  const problems: string[] = [];
  if (terms.deposit.gt(terms.totalamount)) problems.push('deposit must not exceed totalamount');
  if (terms.deposit.plus(terms.monthly.times(terms.months)).lt(terms.totalamount)) {
    problems.push('deposit + monthly × months must be at least totalamount');
  }
  if (problems.length) throw invalid('DEAL_TERMS_INVALID', problems.join('; '));
}

/** The deposit a customer pays at registration: at least the deal's deposit, at most its total. */
export function checkRegistrationDeposit(terms: DealTerms, deposit: Money): void {
  if (deposit.lt(terms.deposit) || deposit.gt(terms.totalamount)) {
    throw invalid(
      'DEPOSIT_OUT_OF_BOUNDS',
      `deposit must be between the deal's deposit ${terms.deposit.toFixed()} and its total ${terms.totalamount.toFixed()}`,
    );
  }
}

export const dealNotFound = (id: number) => notFound('DEAL_NOT_FOUND', `Deal ${id} not found.`);
export const dealInactive = (id: number) => conflict('DEAL_INACTIVE', `Deal ${id} is deactivated.`);
