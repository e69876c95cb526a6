import { allowedTextPattern, hasFreeTextForbidden, hasOneLineForbidden, ONE_LINE_FORBIDDEN } from './characters.js';
import { luhnCheckDigit, luhnValid, normaliseImei } from './imei.js';
import { normalisePayg, paygKey } from './payg.js';
import { normaliseTelephone } from './telephone.js';

describe('telephone numbers', () => {
  it.each(['+256772555001', '256772555001', '0772555001', '0772 555 001', '772555001', '+256 772-555-001', '(0772) 555001', ' 0772.555.001 '])(
    'reads %j as +256772555001 with UG as the default country',
    (typed) => expect(normaliseTelephone(typed, 'UG')).toBe('+256772555001'),
  );

  it('reads digits with another country’s code and no + as that country’s number', () => {
    expect(normaliseTelephone('254712345678', 'UG')).toBe('+254712345678');
    expect(normaliseTelephone('+254712345678', 'UG')).toBe('+254712345678');
    expect(normaliseTelephone('256772555001', 'KE')).toBe('+256772555001');
  });

  it('reads a national number by the default country', () => {
    expect(normaliseTelephone('0712345678', 'KE')).toBe('+254712345678');
    expect(normaliseTelephone('0712345678', 'UG')).toBe('+256712345678');
  });

  it.each(['abc', '', '0772555001x', '+256772555001 ext 5', '2567725550011', '077255500', '0000000', '+1', '0772555001\n', '07725550\u000001', '++256772555001', '00256772555001', '0'.repeat(40)])(
    'refuses %j',
    (typed) => expect(normaliseTelephone(typed, 'UG')).toBeNull(),
  );
});

describe('IMEIs', () => {
  it('checks the Luhn digit', () => {
    expect(luhnValid('490154203237518')).toBe(true);
    expect(luhnValid('490154203237517')).toBe(false);
    expect(luhnCheckDigit('49015420323751')).toBe('8');
    expect(luhnValid('35')).toBe(false);
  });

  it.each([
    ['490154203237518', '490154203237518'],
    ['49-015420-323751-8', '490154203237518'],
    ['49 015420 323751 8', '490154203237518'],
    // DESIGN part 10: "spaces and dashes removed, then exactly 15 digits"
    [' 49-015420-323751-8 ', '490154203237518'],
    ['49--015420323751-8', '490154203237518'],
    ['49 - 015420 - 323751 - 8', '490154203237518'],
    ['-490154203237518', '490154203237518'],
  ])('stores %j as %j', (typed, stored) => expect(normaliseImei(typed)).toBe(stored));

  it.each(['490154203237517', '49015420323751', '4901542032375180', 'A90154203237518', '49015420323751\n8', '4901542032375_18', '- -', `${' '.repeat(60)}490154203237518`, ''])(
    'refuses %j',
    (typed) => expect(normaliseImei(typed)).toBeNull(),
  );
});

describe('PAYG codes', () => {
  it('trims spaces and keeps letter case', () => {
    expect(normalisePayg('  PAYG-0001 ')).toBe('PAYG-0001');
    expect(normalisePayg('payg_0001')).toBe('payg_0001');
  });

  it('compares ignoring letter case', () => expect(paygKey('PAYG-0001')).toBe(paygKey(' payg-0001')));

  it.each(['PA', 'PAYG 0001', 'PAYG-0001\n', '\tPAYG-0001', 'x'.repeat(65), ` ${'x'.repeat(64)}`, 'PAYG/1'])('refuses %j', (typed) => expect(normalisePayg(typed)).toBeNull());
});

describe('characters', () => {
  it('keeps line breaks and control characters out of one-line values', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\tb', 'a\u0000', '\u007f', 'a\u0085', 'a\u2028b', '\u202eevil']) expect(hasOneLineForbidden(bad)).toBe(true);
    expect(hasOneLineForbidden('MP240115.1234.A56789 ümlaut – dash')).toBe(false);
  });

  it('lets free text hold tabs and line breaks, nothing else from C0 or C1', () => {
    expect(hasFreeTextForbidden('line one\r\nline two\tend')).toBe(false);
    for (const bad of ['a\u0000', 'a\u0007', 'a\u000b', '\u001b[31m', 'a\u0085']) expect(hasFreeTextForbidden(bad)).toBe(true);
  });

  it('writes patterns that say the same as the checks', () => {
    const nonBlank = allowedTextPattern(ONE_LINE_FORBIDDEN, true);
    expect(nonBlank.test('MP-1')).toBe(true);
    expect(nonBlank.test('  MP 1  ')).toBe(true);
    expect(nonBlank.test('   ')).toBe(false);
    expect(nonBlank.test('MP\n1')).toBe(false);
    expect(allowedTextPattern(ONE_LINE_FORBIDDEN, false).test('')).toBe(true);
  });
});
