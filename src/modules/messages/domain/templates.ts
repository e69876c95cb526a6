import { MessageFormat, MessageValues } from './message-format.js';
import { isGsm7, smsSize, SmsSize } from './sms-encoding.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/** The event a message tells about; `OPERATOR` is an operator's own text (POST /finance/messages/send). */
export const MessageKind = stringEnum('REGISTERED', 'PAYMENT_RECEIVED', 'REMINDER', 'LOCKED', 'PAID_OFF', 'OPERATOR');
export type MessageKind = EnumValue<typeof MessageKind>;
export const MESSAGE_KINDS = Object.values(MessageKind);

export const LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];

export type TemplateKind = Exclude<MessageKind, typeof MessageKind.OPERATOR>;

/**
 * The customer messages, per language (DESIGN part 11). ICU MessageFormat syntax (see
 * message-format.ts). Every one fits two GSM-7 segments with the longest values its arguments can
 * carry (messages.spec.ts); keep them in the GSM-7 alphabet (no curly quotes or dashes). Dates are
 * absolute ("paid up to 9 April 2026"), never "in 3 days": a reminder held through quiet hours or a
 * gateway outage goes out later than it was written.
 */
export const TEMPLATES: Record<Language, Record<TemplateKind, string>> = {
  en: {
    REGISTERED: 'Welcome! Your device is registered. PAYG code: {payg}. Account: {account}. Deposit received: {deposit}. {instructions}',
    PAYMENT_RECEIVED: 'We received your payment of {amount}, thank you. Balance: {balance}. Your device is paid up to {date}.',
    REMINDER: 'Reminder: your device is paid up to {date}. Pay {amount} before then to keep it unlocked. PAYG code: {payg}. {instructions}',
    LOCKED: 'Your device is locked: payment was due on {date}. Pay {amount} to unlock it. PAYG code: {payg}. {instructions}',
    PAID_OFF: 'Congratulations! You have paid {total} in full. The device is yours now and will not lock again. Thank you!',
  },
  sw: {
    REGISTERED: 'Karibu! Kifaa chako kimesajiliwa. Namba ya PAYG: {payg}. Akaunti: {account}. Amana iliyopokelewa: {deposit}. {instructions}',
    PAYMENT_RECEIVED: 'Tumepokea malipo yako ya {amount}, asante. Salio: {balance}. Kifaa chako kimelipiwa hadi {date}.',
    REMINDER: 'Kumbusho: kifaa chako kimelipiwa hadi {date}. Lipa {amount} kabla ya siku hiyo ili kisifungwe. Namba ya PAYG: {payg}. {instructions}',
    LOCKED: 'Kifaa chako kimefungwa: malipo yalitakiwa {date}. Lipa {amount} ili kifunguliwe. Namba ya PAYG: {payg}. {instructions}',
    PAID_OFF: 'Hongera! Umemaliza kulipa {total}. Kifaa sasa ni mali yako na hakitafungwa tena. Asante!',
  },
};

/** Locales whose number and date conventions each language's messages use (day before month in East Africa). */
const LOCALES: Record<Language, string> = { en: 'en-GB', sw: 'sw' };

/** What each kind's message says, as numbers and calendar dates; formatted per language by render(). */
export interface TemplateFacts {
  REGISTERED: { payg: string; account: string; deposit: string };
  PAYMENT_RECEIVED: { amount: string; balance: string; date: string };
  REMINDER: { date: string; amount: string; payg: string };
  LOCKED: { date: string; amount: string; payg: string };
  PAID_OFF: { total: string };
}

/** Amounts are decimal strings ("45000.50"); dates are business days "YYYY-MM-DD". */
const MONEY_FIELDS = new Set(['deposit', 'amount', 'balance', 'total']);
const DATE_FIELDS = new Set(['date']);

export interface RenderedMessage extends SmsSize {
  language: Language;
  text: string;
}

export interface RenderSettings {
  currency: string;
  /** PAYMENT_INSTRUCTIONS: one line of GSM-7, at most PAYMENT_INSTRUCTIONS_MAX septets (checked at boot: instructionsProblem) */
  instructions: string;
}

/**
 * The longest PAYMENT_INSTRUCTIONS, in GSM-7 septets (an extension character such as € is two),
 * that every template still fits two segments with, its other values at their longest, whatever
 * the currency (messages.spec.ts).
 */
export const PAYMENT_INSTRUCTIONS_MAX = 100;

/**
 * What keeps a PAYMENT_INSTRUCTIONS text from ending the messages ("is 200 septets"), or null when
 * nothing does. A character outside GSM-7 makes every message carrying it UCS-2, whose two segments
 * (134 UTF-16 units) cannot hold even the templates' own words with their longest values: no UCS-2
 * text fits, however short.
 */
export function instructionsProblem(text: string): string | null {
  if (/[\r\n\f]/.test(text)) return 'has a line break';
  const other = [...text].find((ch) => !isGsm7(ch));
  if (other) return `has ${other} (U+${other.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}), which is not GSM-7 and would make every message UCS-2`;
  const { units } = smsSize(text);
  return units > PAYMENT_INSTRUCTIONS_MAX ? `is ${units} septets` : null;
}

/** No-break spaces from Intl are not GSM-7: they would make every message UCS-2. */
const plainSpaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

export class MessageTemplates {
  private readonly compiled = new Map<string, MessageFormat>();
  private readonly money = new Map<string, Intl.NumberFormat>();
  private readonly dates = new Map<Language, Intl.DateTimeFormat>();

  constructor(private readonly settings: RenderSettings) {
    for (const language of LANGUAGES) {
      const locale = LOCALES[language];
      for (const [kind, source] of Object.entries(TEMPLATES[language])) this.compiled.set(`${language}:${kind}`, new MessageFormat(source, locale));
      // calendar days carry no time zone: they are formatted as the UTC midnight they are parsed to
      this.dates.set(language, new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
      const base = { style: 'currency', currency: settings.currency, currencyDisplay: 'code' } as const;
      this.money.set(`${language}:whole`, new Intl.NumberFormat(locale, base));
      this.money.set(`${language}:cents`, new Intl.NumberFormat(locale, { ...base, minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    }
  }

  formatMoney(language: Language, amount: string): string {
    const cents = /\.\d*[1-9]/.test(amount);
    // Intl reads a decimal string exactly (no float rounding) in Node 20+
    return plainSpaces(this.money.get(`${language}:${cents ? 'cents' : 'whole'}`)!.format(amount as unknown as number));
  }

  formatDate(language: Language, date: string): string {
    return plainSpaces(this.dates.get(language)!.format(new Date(`${date}T00:00:00Z`)));
  }

  render<K extends TemplateKind>(kind: K, language: Language, facts: TemplateFacts[K]): RenderedMessage {
    const values: MessageValues = { instructions: this.settings.instructions };
    for (const [name, value] of Object.entries(facts) as Array<[string, string | number]>) {
      values[name] = MONEY_FIELDS.has(name) ? this.formatMoney(language, String(value)) : DATE_FIELDS.has(name) ? this.formatDate(language, String(value)) : value;
    }
    const text = this.compiled.get(`${language}:${kind}`)!.format(values).trim();
    return { language, text, ...smsSize(text) };
  }

  /** The message in every language: the outbox keeps the one of the customer's language (see MessagesRepository.insertEvent). */
  renderAll<K extends TemplateKind>(kind: K, facts: TemplateFacts[K]): RenderedMessage[] {
    return LANGUAGES.map((language) => this.render(kind, language, facts));
  }
}
