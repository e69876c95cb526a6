import { DomainError, ErrorKind } from '../errors/domain-error.js';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('lets `max` in, refuses one more with RATE_LIMITED, and takes one again once a place is given back', () => {
    const slots = new Slots(2, 'BUSY', 'Two are running.');
    const first = slots.take();
    slots.take();
    let refused: unknown;
    try {
      slots.take();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: ErrorKind.RATE_LIMITED, code: 'BUSY', message: 'Two are running.' });
    first();
    expect(() => slots.take()).not.toThrow();
  });

  it('gives a place back once, however often its release is called', () => {
    const slots = new Slots(1, 'BUSY', 'One is running.');
    const release = slots.take();
    release();
    release();
    slots.take();
    expect(() => slots.take()).toThrow('One is running.');
  });
});
