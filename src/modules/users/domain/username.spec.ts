import fc from 'fast-check';
import { canonicalUsername, staffUsernameProblem, usernameProblem } from './username.js';

describe('canonicalUsername', () => {
  it('makes letter-case variants one name, İ included', () => {
    expect(canonicalUsername('İii9')).toBe('iii9');
    expect(canonicalUsername('III9')).toBe('iii9');
    expect(canonicalUsername('Admin')).toBe(canonicalUsername('aDMIN'));
  });

  it('folds compatibility forms (NFKC): full-width letters, the Kelvin sign, ligatures', () => {
    expect(canonicalUsername('ＯＰＳ')).toBe('ops');
    expect(canonicalUsername('\u212Aelvin')).toBe('kelvin');
    expect(canonicalUsername('ﬁnance')).toBe('finance');
  });

  it('leaves telephones and lower-case ASCII as they are', () => {
    expect(canonicalUsername('+256772555001')).toBe('+256772555001');
    expect(canonicalUsername('cashier.1@shop')).toBe('cashier.1@shop');
  });

  it('is a fixed point: canonical twice is canonical once', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (name) => canonicalUsername(canonicalUsername(name)) === canonicalUsername(name)), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (name) => canonicalUsername(canonicalUsername(name)) === canonicalUsername(name)), { numRuns: 2000 });
  });

  it('gives every upper/lower-case spelling of an ASCII name the same form', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._@+-]{3,20}$/), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), (name, flips) => {
        const variant = [...name].map((ch, i) => (flips[i] ? ch.toUpperCase() : ch.toLowerCase())).join('');
        return canonicalUsername(variant) === canonicalUsername(name);
      }),
    );
  });
});

describe('usernameProblem', () => {
  it.each(['a\nb', 'a\rb', 'tab\there', 'nul\u0000', 'del\u007f', 'c1\u0085', 'ls\u2028', 'ps\u2029'])('refuses %j', (name) => {
    expect(usernameProblem(name)).toBe('username must not contain line breaks or control characters');
  });

  it.each(['operator1', 'İii9', '+256772555001', 'jean marie'])('accepts %j', (name) => {
    expect(usernameProblem(name)).toBeUndefined();
  });
});

describe('staffUsernameProblem', () => {
  it('keeps telephone numbers in international form for customers, and lets other names through', () => {
    expect(staffUsernameProblem('+256772555040')).toBe('username must not be a telephone number in international form: customers are known by theirs');
    for (const name of ['cashier1', 'ops+uganda', '0772555040', 'a@b.c', '+ops']) expect(staffUsernameProblem(name)).toBeUndefined();
    expect(staffUsernameProblem('bad\nname')).toBe('username must not contain line breaks or control characters');
  });
});
