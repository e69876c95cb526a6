/** What other modules may read of the accounts table in their own SQL (customer views). */

/** Joins the account (alias `a`) whose id is `accountId`. */
export const JOIN_ACCOUNT = (accountId: string) => `JOIN accounts a ON a.id = ${accountId}`;

export const ACCOUNT_COLUMNS = 'a.id AS accountid, a.accountnumber';
