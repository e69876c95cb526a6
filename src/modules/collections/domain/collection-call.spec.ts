import {
  CALL_STATUSES,
  CallStatus,
  checkAssignable,
  checkPromiseDate,
  checkTransition,
} from './collection-call.js';

describe('collection call transitions', () => {
  it('allows only PENDING → CALLED → RESOLVED', () => {
    const allowed = new Set(['PENDING>CALLED', 'CALLED>RESOLVED']);
    for (const from of CALL_STATUSES) {
      for (const to of CALL_STATUSES) {
        const move = () => checkTransition(5, from, to);
        if (allowed.has(`${from}>${to}`)) expect(move).not.toThrow();
        else expect(move).toThrow(/^Call 5 is /);
      }
    }
  });

  it('explains what is possible', () => {
    expect(() => checkTransition(5, CallStatus.PENDING, CallStatus.RESOLVED)).toThrow(
      'Call 5 is PENDING; it can only move to CALLED, not to RESOLVED.',
    );
    expect(() => checkTransition(5, CallStatus.RESOLVED, CallStatus.CALLED)).toThrow(
      'Call 5 is RESOLVED; it can no longer change, not to CALLED.',
    );
  });

  it('assigns open calls only, and takes promises for today or later', () => {
    expect(() => checkAssignable(1, CallStatus.CALLED)).not.toThrow();
    expect(() => checkAssignable(1, CallStatus.RESOLVED)).toThrow('Call 1 is resolved.');
    expect(() => checkPromiseDate('2026-03-10', '2026-03-10')).not.toThrow();
    expect(() => checkPromiseDate(undefined, '2026-03-10')).not.toThrow();
    expect(() => checkPromiseDate('2026-03-09', '2026-03-10')).toThrow(
      'promisedate 2026-03-09 is before today (2026-03-10).',
    );
  });
});
