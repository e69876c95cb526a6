/**
 * What other modules may read of device_commands in their own SQL. Published here, at the module's
 * root, so that device-commands knows who reads what; every write of the table is in its
 * infrastructure/.
 */

/**
 * When the temporary unlock running on a customer's device ends, or NULL: the newest TEMP_UNLOCK
 * whose end has not been pushed yet (a newer unlock settles the older ones). `customerId` is an SQL
 * expression; the answer is a timestamptz, which may already be past while the end waits to be pushed.
 */
export const TEMP_UNLOCK_END = (customerId: string) =>
  `(SELECT max(unlockuntil) FROM device_commands WHERE customer_id = ${customerId} AND action = 'TEMP_UNLOCK' AND restored_at IS NULL)`;
