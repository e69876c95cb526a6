import { isMoneyNumber } from './fields.js';
import { MAX_INPUT_DEPTH, screenInput } from './validation.pipe.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('screenInput', () => {
  it('passes ordinary input, emoji and other well-formed text included', () => {
    expect(screenInput({ name: 'Amina 😀', phones: ['0712345678'], transaction: { id: 'T1', amount: 10 } })).toBeUndefined();
    expect(screenInput(nested(MAX_INPUT_DEPTH - 1))).toBeUndefined();
  });

  it('refuses nesting deeper than the limit without recursing (10,000 levels)', () => {
    expect(screenInput(nested(MAX_INPUT_DEPTH + 1))).toBe(`Request is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
    expect(screenInput(nested(10_000))).toBe(`Request is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
  });

  it('names the field holding a NUL character or a lone surrogate', () => {
    expect(screenInput({ accountnumber: 'AC\u0000' })).toBe('accountnumber must not contain the NUL character');
    expect(screenInput({ transaction: { id: 'a\udfffb' } })).toMatch(/^transaction\.id must be well-formed Unicode text/);
    expect(screenInput({ phones: ['ok', '\ud800'] })).toMatch(/^phones\[1\] must be well-formed/);
    expect(screenInput('x\u0000', 'id')).toBe('id must not contain the NUL character');
    // a webhook's body: only its depth, its unknown fields are dropped whatever they hold
    expect(screenInput({ note: 'a\u0000', ['k\ud800']: 1, toString: 'x' }, '', { depthOnly: true })).toBeUndefined();
    expect(screenInput(nested(MAX_INPUT_DEPTH + 1), '', { depthOnly: true })).toBe(`Request is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
  });

  it('refuses keys that name Object.prototype members, which class-transformer would drop silently', () => {
    for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      expect(screenInput(JSON.parse(`{"name":"x","${key}":1}`))).toBe(`property ${key} should not exist`);
    }
    expect(screenInput({ 'a\u0000': 1 })).toBe('a property name must not contain the NUL character');
  });
});

describe('isMoneyNumber', () => {
  it.each([1, 0.1, 0.01, 12.34, 1500, 999999999.99, 1e21])('accepts %p (at most 2 decimals)', (value) => {
    expect(isMoneyNumber(value)).toBe(true);
  });

  it.each([1e-7, 0.005, 1.999, 5e-324, NaN, Infinity, -Infinity, '10', null])('refuses %p', (value) => {
    expect(isMoneyNumber(value)).toBe(false);
  });
});
