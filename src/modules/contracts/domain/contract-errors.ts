import { conflict, notFound } from '../../../common/errors/domain-error.js';

/** A customer without a deal does not exist: every customer is registered on one. */
export const contractNotFound = (customerId: number) => notFound('CUSTOMER_NOT_FOUND', `Customer ${customerId} not found.`);
export const alreadyRepossessed = (customerId: number) => conflict('ALREADY_REPOSSESSED', `Customer ${customerId} is already repossessed.`);
export const repossessed = (customerId: number, consequence: string) => conflict('DEAL_REPOSSESSED', `Customer ${customerId}'s deal is repossessed: ${consequence}.`);
export const paidOffNoBonus = (customerId: number) => conflict('DEAL_PAID_OFF', `Customer ${customerId}'s deal is paid off: the device is released, no bonus days.`);
export const paidOffNoUnlock = (customerId: number) => conflict('DEAL_PAID_OFF', `Customer ${customerId}'s deal is paid off: the device is released for good, there is nothing to unlock.`);
export const bonusLimit = (customerId: number, granted: number, max: number) =>
  conflict('BONUS_DAYS_LIMIT', `Customer ${customerId}'s deal has ${granted} bonus days; at most ${max} may be granted in total (BONUS_DAYS_MAX).`);
export const tempUnlockLimit = (customerId: number, granted: number, max: number) =>
  conflict('TEMP_UNLOCK_LIMIT', `Customer ${customerId}'s device was unlocked for ${granted} hours in the last 30 days; at most ${max} hours are allowed (TEMP_UNLOCK_MAX_HOURS).`);
export const nothingToSync = (customerId: number, date: string) =>
  conflict('NOTHING_TO_SYNC', `Customer ${customerId}'s next payment date ${date} is not in the future: there is no paid-up state to push.`);
export const deviceMovedOn = (customerId: number, imei: string, payingCustomerId: number) =>
  conflict('DEVICE_MOVED_ON', `Customer ${customerId}'s device (IMEI ${imei}) is now on customer ${payingCustomerId}'s deal: this contract no longer commands it.`);
