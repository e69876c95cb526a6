import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

export const DeviceAction = stringEnum('LOCK', 'UNLOCK', 'TEMP_UNLOCK', 'PERMANENT_LOCK', 'RELEASE', 'SYNC');
export type DeviceAction = EnumValue<typeof DeviceAction>;

export const CommandStatus = stringEnum('PENDING', 'DELIVERED');
export type CommandStatus = EnumValue<typeof CommandStatus>;

/** The device a command is for, as the platform knows it. */
export interface DeviceRef {
  customerId: number;
  imei: string;
  serialnumber: string | null;
  payg: string | null;
}

export interface NewCommand {
  device: DeviceRef;
  action: DeviceAction;
  nextpaymentdate: string | null;
  unlockuntil?: Date | null;
  /** hours a TEMP_UNLOCK grants */
  unlockHours?: number | null;
  reason: string;
  createdBy: number | null;
}

/** Deal statuses as this module needs them (kept as plain strings so the outbox does not depend on customers). */
type Status = 'LOCKED' | 'UNLOCKED' | 'PAID_OFF' | 'REPOSSESSED';

/**
 * What the device must be told when its deal moves from one state to another; null when nothing
 * it does changes. A later paid-up date on an unlocked device is a SYNC, so the device's own clock
 * locks it at the right time even when it is offline.
 */
export function commandForTransition(before: { status: Status; nextpaymentdate: string }, after: { status: Status; nextpaymentdate: string }): DeviceAction | null {
  if (after.status === before.status) {
    return after.status === 'UNLOCKED' && after.nextpaymentdate !== before.nextpaymentdate ? DeviceAction.SYNC : null;
  }
  switch (after.status) {
    case 'REPOSSESSED':
      return DeviceAction.PERMANENT_LOCK;
    case 'PAID_OFF':
      return DeviceAction.RELEASE;
    case 'UNLOCKED':
      return DeviceAction.UNLOCK;
    case 'LOCKED':
      return DeviceAction.LOCK;
  }
}

/**
 * Whether a command for a deal's new state waits for the temporary unlock running on the device to
 * end (its end pushes the deal's real state): a LOCK, or an UNLOCK or SYNC whose paid-up date comes
 * by the unlock's last day (the device's own clock locks it that morning), would lock the device before
 * the hours it was given are up. `unlockEndDay`: the business day the running unlock ends, null when
 * none runs. RELEASE and PERMANENT_LOCK never wait.
 */
export function waitsForUnlockEnd(action: DeviceAction, nextpaymentdate: string, unlockEndDay: string | null): boolean {
  if (unlockEndDay === null) return false;
  switch (action) {
    case DeviceAction.LOCK:
      return true;
    case DeviceAction.UNLOCK:
    case DeviceAction.SYNC:
      return nextpaymentdate <= unlockEndDay;
    default:
      return false;
  }
}

/** What restores a device to its deal's real state (after a temporary unlock ends). */
export function commandForState(status: Status): DeviceAction {
  switch (status) {
    case 'REPOSSESSED':
      return DeviceAction.PERMANENT_LOCK;
    case 'PAID_OFF':
      return DeviceAction.RELEASE;
    case 'UNLOCKED':
      return DeviceAction.SYNC;
    case 'LOCKED':
      return DeviceAction.LOCK;
  }
}

export const BACKOFF_START_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;

/** Exponential backoff for the n-th failed attempt (1-based): 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** Math.max(0, attempts - 1));
}
