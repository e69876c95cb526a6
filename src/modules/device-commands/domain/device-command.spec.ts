import { commandForState, commandForTransition, DeviceAction, retryDelayMs, waitsForUnlockEnd } from './device-command.js';

describe('device commands', () => {
  const s = (status: 'LOCKED' | 'UNLOCKED' | 'PAID_OFF' | 'REPOSSESSED', nextpaymentdate = '2026-03-10') => ({ status, nextpaymentdate });

  it.each([
    [s('LOCKED'), s('UNLOCKED', '2026-04-09'), DeviceAction.UNLOCK],
    [s('UNLOCKED'), s('LOCKED'), DeviceAction.LOCK],
    [s('UNLOCKED'), s('PAID_OFF'), DeviceAction.RELEASE],
    [s('LOCKED'), s('PAID_OFF'), DeviceAction.RELEASE],
    [s('UNLOCKED'), s('REPOSSESSED'), DeviceAction.PERMANENT_LOCK],
    [s('UNLOCKED'), s('UNLOCKED', '2026-05-01'), DeviceAction.SYNC],
    [s('UNLOCKED'), s('UNLOCKED'), null],
    [s('LOCKED'), s('LOCKED', '2026-03-09'), null],
    [s('REPOSSESSED'), s('REPOSSESSED', '2026-09-01'), null],
  ])('%p → %p tells the device %p', (before, after, action) => {
    expect(commandForTransition(before, after)).toBe(action);
  });

  it('restores each real state after a temporary unlock', () => {
    expect(commandForState('LOCKED')).toBe(DeviceAction.LOCK);
    expect(commandForState('UNLOCKED')).toBe(DeviceAction.SYNC);
    expect(commandForState('PAID_OFF')).toBe(DeviceAction.RELEASE);
    expect(commandForState('REPOSSESSED')).toBe(DeviceAction.PERMANENT_LOCK);
  });

  it.each([
    [DeviceAction.LOCK, '2026-03-09', true],
    [DeviceAction.UNLOCK, '2026-03-12', true], // the device would lock itself on the morning the unlock ends
    [DeviceAction.SYNC, '2026-03-11', true],
    [DeviceAction.UNLOCK, '2026-03-13', false],
    [DeviceAction.SYNC, '2026-04-09', false],
    [DeviceAction.RELEASE, '2026-03-10', false],
    [DeviceAction.PERMANENT_LOCK, '2026-03-10', false],
  ])('while an unlock runs until 2026-03-12, %s with paid-up date %s waits for its end: %p', (action, nextpaymentdate, waits) => {
    expect(waitsForUnlockEnd(action, nextpaymentdate, '2026-03-12')).toBe(waits);
    expect(waitsForUnlockEnd(action, nextpaymentdate, null)).toBe(false);
  });

  it('backs off exponentially from 1 s to at most 5 minutes', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(9)).toBe(256_000);
    expect(retryDelayMs(10)).toBe(300_000);
    expect(retryDelayMs(50)).toBe(300_000);
  });
});
