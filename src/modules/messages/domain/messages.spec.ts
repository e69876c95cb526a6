import { isQuiet, parseQuietHours, parseReminderDays, reminderOffsetFor } from './message.js';
import { MessageFormat } from './message-format.js';
import { isGsm7, smsSize, TEMPLATE_MAX_SEPTETS } from './sms-encoding.js';
import { instructionsProblem, LANGUAGES, MessageKind, MessageTemplates, PAYMENT_INSTRUCTIONS_MAX, TemplateKind, TEMPLATES } from './templates.js';

const { REGISTERED, PAYMENT_RECEIVED, REMINDER, LOCKED, PAID_OFF } = MessageKind;

describe('SMS size', () => {
  it('counts GSM-7 septets, extension characters as two, and segments of 160 / 153', () => {
    expect(smsSize('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 1 });
    expect(smsSize('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSize('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSize('a'.repeat(306))).toEqual({ encoding: 'GSM-7', units: 306, segments: 2 });
    expect(smsSize('a'.repeat(307))).toMatchObject({ segments: 3 });
    expect(smsSize('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSize('[]{}|^~\\€\f')).toMatchObject({ encoding: 'GSM-7', units: 20 });
    // an escape pair is not split: 152 plain + one € does not fit the first 153
    expect(smsSize('a'.repeat(152) + '€' + 'a'.repeat(152))).toMatchObject({ units: 306, segments: 3 });
    expect(smsSize('@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà¡¤')).toMatchObject({ encoding: 'GSM-7' });
  });

  it('switches to UCS-2 for any other character: 70 / 67 UTF-16 units, surrogate pairs whole', () => {
    expect(isGsm7('ç')).toBe(false); // only the capital Ç is in the basic table
    expect(smsSize('a'.repeat(69) + '’')).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSize('a'.repeat(71) + 'ü')).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(smsSize('Ā'.repeat(71))).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    expect(smsSize('Ā'.repeat(134))).toMatchObject({ segments: 2 });
    expect(smsSize('Ā'.repeat(66) + '😀' + 'Ā'.repeat(66))).toMatchObject({ units: 134, segments: 3 });
    expect(smsSize('\u00a0')).toMatchObject({ encoding: 'UCS-2' });
  });
});

describe('ICU-style message format', () => {
  it('fills arguments and plural cases with # and exact matches', () => {
    const f = new MessageFormat('{n, plural, =0 {none} one {# day} other {# days}} for {who}', 'en');
    expect(f.format({ n: 0, who: 'A' })).toBe('none for A');
    expect(f.format({ n: 1, who: 'A' })).toBe('1 day for A');
    expect(f.format({ n: 3, who: 'A' })).toBe('3 days for A');
    expect(f.argumentNames.sort()).toEqual(['n', 'who']);
    expect(() => f.format({ n: 1 })).toThrow('no value for {who}');
    expect(() => new MessageFormat('{a, select, x {y}}', 'en')).toThrow('unsupported');
    expect(() => new MessageFormat('{a, plural, one {y}}', 'en')).toThrow('other');
    expect(() => new MessageFormat('a } b', 'en')).toThrow('unexpected }');
  });
});

/** The longest values each argument can carry (DESIGN part 10 and 4 bounds). */
const LONGEST = {
  payg: 'W'.repeat(64),
  // "AC" + an integer id of up to 10 digits + a check digit
  account: 'AC21474836479',
  amounts: ['999999999.99', '1000000000', '888888888.88'],
};
const MONTHS = Array.from({ length: 12 }, (_, m) => `2026-${String(m + 1).padStart(2, '0')}-28`);

function* everyRendering(t: MessageTemplates): Generator<{ kind: TemplateKind; language: string; text: string; units: number; encoding: string; segments: number }> {
  for (const language of LANGUAGES) {
    for (const amount of LONGEST.amounts) {
      yield { kind: REGISTERED as TemplateKind, ...t.render(REGISTERED, language, { payg: LONGEST.payg, account: LONGEST.account, deposit: amount }) };
      yield { kind: PAID_OFF as TemplateKind, ...t.render(PAID_OFF, language, { total: amount }) };
      for (const date of MONTHS) {
        yield { kind: PAYMENT_RECEIVED as TemplateKind, ...t.render(PAYMENT_RECEIVED, language, { amount, balance: amount, date }) };
        yield { kind: LOCKED as TemplateKind, ...t.render(LOCKED, language, { date, amount, payg: LONGEST.payg }) };
        yield { kind: REMINDER as TemplateKind, ...t.render(REMINDER, language, { date, amount, payg: LONGEST.payg }) };
      }
    }
  }
}

describe('message templates', () => {
  it('has every kind in every language, readable, in the GSM-7 alphabet', () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(TEMPLATES[language]).sort()).toEqual(Object.keys(TEMPLATES.en).sort());
      for (const source of Object.values(TEMPLATES[language])) {
        expect(isGsm7(source)).toBe(true);
        new MessageFormat(source, language);
      }
    }
  });

  /** `pattern` repeated to just `septets` GSM-7 septets, topped up with dots. */
  const septetsOf = (septets: number, pattern: string) => {
    let text = '';
    for (const ch of pattern.repeat(septets)) {
      if (smsSize(text + ch).units > septets) break;
      text += ch;
    }
    return text + '.'.repeat(septets - smsSize(text).units);
  };
  /** Instructions of PAYMENT_INSTRUCTIONS_MAX septets: plain, all escape pairs (€ is two septets), and mixed. */
  const LONGEST_INSTRUCTIONS = {
    plain: 'I'.repeat(PAYMENT_INSTRUCTIONS_MAX),
    euros: '€'.repeat(PAYMENT_INSTRUCTIONS_MAX / 2),
    mixed: septetsOf(PAYMENT_INSTRUCTIONS_MAX, 'Pay [MoMo] {123456} ~ ^ | \\ € to '),
  };

  it('counts the longest instructions in septets, extension characters as two', () => {
    for (const text of Object.values(LONGEST_INSTRUCTIONS)) expect(smsSize(text)).toMatchObject({ encoding: 'GSM-7', units: PAYMENT_INSTRUCTIONS_MAX });
    for (const text of Object.values(LONGEST_INSTRUCTIONS)) expect(instructionsProblem(text)).toBeNull();
    expect(instructionsProblem('€'.repeat(PAYMENT_INSTRUCTIONS_MAX / 2) + 'x')).toBe('is 101 septets');
    expect(instructionsProblem('€'.repeat(PAYMENT_INSTRUCTIONS_MAX))).toBe('is 200 septets'); // 100 characters
  });

  it.each(['UGX', 'KES', 'TZS', 'USD', 'BIF'])('fits two GSM-7 segments with the longest values it can carry (%s)', (currency) => {
    for (const [name, instructions] of Object.entries(LONGEST_INSTRUCTIONS)) {
      const t = new MessageTemplates({ currency, instructions });
      let longest = 0;
      for (const r of everyRendering(t)) {
        if (r.encoding !== 'GSM-7' || r.units > TEMPLATE_MAX_SEPTETS - 1) throw new Error(`${r.kind}/${r.language} with ${name} instructions is ${r.encoding} ${r.units} long: ${r.text}`);
        expect(r.segments).toBeLessThanOrEqual(2);
        longest = Math.max(longest, r.units);
      }
      expect(longest).toBeGreaterThan(290); // the worst case really was exercised
    }
  });

  it('leaves room for the longest instructions with every currency CURRENCY accepts', () => {
    // one septet spare: a shorter value can move an escape pair onto the segment boundary, which it never straddles
    for (const currency of Intl.supportedValuesOf('currency')) {
      const t = new MessageTemplates({ currency, instructions: LONGEST_INSTRUCTIONS.plain });
      const longest = Math.max(...[...everyRendering(t)].map((r) => r.units));
      if (longest > TEMPLATE_MAX_SEPTETS - 1) throw new Error(`${currency}: ${longest} septets`);
    }
  });

  it('refuses instructions outside GSM-7: they make every message carrying them UCS-2, which two segments cannot hold', () => {
    const ucs2 = 'Lipa kwa M‑Pesa'; // a non-breaking hyphen
    expect(instructionsProblem(ucs2)).toBe('has ‑ (U+2011), which is not GSM-7 and would make every message UCS-2');
    expect(instructionsProblem('Lipa 😀')).toBe('has 😀 (U+1F600), which is not GSM-7 and would make every message UCS-2');
    // even a short UCS-2 text: two UCS-2 segments hold 134 units, less than the words and longest values alone
    const t = new MessageTemplates({ currency: 'UGX', instructions: ucs2 });
    const withInstructions = [...everyRendering(t)].filter((r) => r.text.endsWith(ucs2));
    expect(withInstructions.length).toBeGreaterThan(0);
    expect(withInstructions.every((r) => r.encoding === 'UCS-2')).toBe(true);
    expect(Math.min(...withInstructions.map((r) => r.segments))).toBeGreaterThan(2);
    expect(instructionsProblem('Pay\nto 123456')).toBe('has a line break');
    expect(instructionsProblem('')).toBeNull();
  });

  it('writes amounts in CURRENCY and business dates day first, per language', () => {
    const t = new MessageTemplates({ currency: 'UGX', instructions: 'Pay with MTN MoMo to 123456.' });
    expect(t.render(PAYMENT_RECEIVED, 'en', { amount: '45000', balance: '495000.5', date: '2026-04-09' }).text).toBe(
      'We received your payment of UGX 45,000, thank you. Balance: UGX 495,000.50. Your device is paid up to 9 April 2026.',
    );
    const sw = t.render(REMINDER, 'sw', { date: '2026-04-09', amount: '45000', payg: 'PAYG-1' });
    expect(sw.text).toBe('Kumbusho: kifaa chako kimelipiwa hadi 9 Aprili 2026. Lipa UGX 45,000 kabla ya siku hiyo ili kisifungwe. Namba ya PAYG: PAYG-1. Pay with MTN MoMo to 123456.');
    expect(sw).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(t.formatDate('en', '2026-12-31')).toBe('31 December 2026');
    // without instructions the message ends cleanly
    const bare = new MessageTemplates({ currency: 'KES', instructions: '' });
    expect(bare.render(LOCKED, 'en', { date: '2026-04-09', amount: '1500.25', payg: 'P-1' }).text).toBe(
      'Your device is locked: payment was due on 9 April 2026. Pay KES 1,500.25 to unlock it. PAYG code: P-1.',
    );
  });
});

describe('reminder and quiet-hour rules', () => {
  it('picks one reminder offset per window, catching up a missed day', () => {
    const offsets = parseReminderDays('3,1')!;
    expect(offsets).toEqual([3, 1]);
    expect([0, 1, 2, 3, 4].map((d) => reminderOffsetFor(d, offsets))).toEqual([null, 1, 3, 3, null]);
    for (const bad of ['', '0', '3,x', '31', '-1']) expect(parseReminderDays(bad)).toBeNull();
    const quiet = parseQuietHours('21-7')!;
    expect([20, 21, 23, 0, 6, 7, 12].map((h) => isQuiet(h, quiet))).toEqual([false, true, true, true, true, false, false]);
    expect(isQuiet(3, parseQuietHours('1-5')!)).toBe(true);
    expect(isQuiet(5, parseQuietHours('1-5')!)).toBe(false);
    expect(isQuiet(5, parseQuietHours('0-0')!)).toBe(false);
    for (const bad of ['21', '24-7', 'a-b', '21-7-1']) expect(parseQuietHours(bad)).toBeNull();
  });
});
