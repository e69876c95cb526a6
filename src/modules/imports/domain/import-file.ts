import { invalid } from '../../../common/errors/domain-error.js';
import { hasFreeTextForbidden, hasOneLineForbidden, textLength } from '../../../common/identifiers/characters.js';
import { normaliseImei } from '../../../common/identifiers/imei.js';
import { normalisePayg } from '../../../common/identifiers/payg.js';
import { normaliseTelephone } from '../../../common/identifiers/telephone.js';
import { MAX_AMOUNT, Money } from '../../../common/money/money.js';
import { isValidDate } from '../../../common/time/business-date.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';
import { DealStatus } from '../../contracts/domain/credit-policy.js';
import { CUSTOMER_STATUSES, CustomerStatus, type CustomerIdentity, SALES_STAGES, type SalesStage } from '../../customers/domain/customer.js';
import { type Language, LANGUAGES } from '../../messages/domain/templates.js';

export const IMPORT_KINDS = ['customers', 'payments'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_MODES = ['validate', 'apply'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const ImportStatus = stringEnum('VALIDATING', 'APPLYING', 'DONE', 'FAILED');
export type ImportStatus = EnumValue<typeof ImportStatus>;

/**
 * One bad cell (or row): `row` counts the file's lines as a spreadsheet shows them, the header being
 * row 1 unless blank rows come before it (they are skipped, and counted).
 */
export interface RowError {
  row: number;
  field: string;
  message: string;
}

/** Errors an import lists (in its answer and its stored record): the first ones by row, enough to correct a file. */
export const ERRORS_LISTED_MAX = 1000;

/**
 * Every error of one file, counted, of which only the first `max` by row are kept: a file of a
 * million bad cells neither fills the memory nor makes a 100 MB answer. Errors arrive almost but
 * not quite in row order (a chunk is checked against the book after the cells of later rows were
 * read), so the kept list is sorted and cut back to its lowest rows whenever it reaches twice `max`.
 */
export class RowErrors {
  /** Every error found. */
  count = 0;
  /** Rows with at least one error. */
  rows = 0;
  private kept: RowError[] = [];

  constructor(private readonly max = ERRORS_LISTED_MAX) {}

  /** One row's errors, all at once: each row is checked in one go, so it is counted once. */
  addRow(errors: readonly RowError[]): void {
    if (errors.length === 0) return;
    this.count += errors.length;
    this.rows++;
    this.kept.push(...errors);
    if (this.kept.length >= 2 * this.max) this.cut();
  }

  /** The first `max` errors by row, each row's in the order they were found. */
  list(): RowError[] {
    this.cut();
    return [...this.kept];
  }

  private cut(): void {
    this.kept.sort((a, b) => a.row - b.row); // stable: a row's errors keep their order
    if (this.kept.length > this.max) this.kept.length = this.max;
  }
}

/** The columns of each kind (DESIGN part 12), named as in part 4a. */
export const COLUMNS: Record<ImportKind, { required: readonly string[]; optional: readonly string[] }> = {
  customers: {
    required: ['externalid', 'fullname', 'telephone', 'guarantorname', 'guarantorcontact', 'imei', 'payg', 'dealid', 'depositpaid', 'amountpaid', 'startdate'],
    // what an export of this service writes besides (part 4a), so that it re-imports as itself; the deal's other states are the credit policy's
    // totalamount and monthly, when given, are checked against the deal (an export writes them): they are not taken from the file
    optional: ['serialnumber', 'status', 'salesstage', 'dealstatus', 'bonusdays', 'language', 'smsoptout', 'totalamount', 'monthly'],
  },
  payments: { required: ['externalid', 'amount', 'reference', 'date'], optional: ['payg', 'customerid', 'narration'] },
};

export const EXTERNALID_MAX = 100;

export interface CustomerRow extends CustomerIdentity {
  row: number;
  externalid: string;
  serialnumber: string | null;
  /** PENDING unless the file says APPROVED, or REPOSSESSED (then `repossessed`) */
  status: CustomerStatus;
  salesstage: SalesStage | null;
  /** the file says the deal was repossessed: it stays so, and its device locked for good */
  repossessed: boolean;
  bonusdays: number;
  /** the customer's message preferences, when the file gives them (an export of this service does where they were set) */
  language: Language | null;
  smsoptout: boolean | null;
  dealid: number;
  depositpaid: Money;
  amountpaid: Money;
  startdate: string;
  /** the deal's state as the file states it (null when not given): checked against the money, never taken */
  dealstatus: DealStatus | null;
  /** the deal's terms as the file states them (null when not given): they must be the deal's */
  totalamount: Money | null;
  monthly: Money | null;
}

export interface PaymentRow {
  row: number;
  externalid: string;
  payg: string | null;
  customerid: number | null;
  amount: Money;
  reference: string;
  narration: string;
  date: string;
}

/**
 * A CSV export of this service writes `'` before a cell starting with = + - @ tab or CR (CSV
 * injection, part 12), and before one starting with `'`; reading such a file back drops it again,
 * so an export re-imports as itself.
 */
export function unescapeCell(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell;
}

/** How a header is found, in the file and in a mapping: spaces around it and letter case aside. */
const headerKey = (header: string) => header.trim().toLowerCase();

/**
 * The header → field mapping of another platform's export: every key a header of the file (found as
 * a field name is: spaces around it and letter case aside), every value a field of this kind.
 * Unknown fields, a field named twice and a header named twice are 400s.
 */
export function parseMapping(text: string | undefined, kind: ImportKind): Record<string, string> | null {
  if (text === undefined || text.trim() === '') return null;
  let mapping: unknown;
  try {
    mapping = JSON.parse(text);
  } catch {
    throw invalid('IMPORT_MAPPING_INVALID', 'mapping must be a JSON object: {"file header": "field"}');
  }
  if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping)) throw invalid('IMPORT_MAPPING_INVALID', 'mapping must be a JSON object: {"file header": "field"}');
  const fields = [...COLUMNS[kind].required, ...COLUMNS[kind].optional];
  const seen = new Set<string>();
  const headers = new Map<string, string>();
  for (const [header, field] of Object.entries(mapping)) {
    if (typeof field !== 'string' || !fields.includes(field)) throw invalid('IMPORT_MAPPING_INVALID', `mapping of "${header}" must be one of ${fields.join(', ')}`);
    if (seen.has(field)) throw invalid('IMPORT_MAPPING_INVALID', `mapping names ${field} twice`);
    const first = headers.get(headerKey(header));
    if (first !== undefined) throw invalid('IMPORT_MAPPING_INVALID', `mapping names the header "${header}" twice (as "${first}")`);
    seen.add(field);
    headers.set(headerKey(header), header);
  }
  return mapping as Record<string, string>;
}

/**
 * The field each column of the file holds, after the mapping. Columns that are neither mapped nor
 * fields of this kind are ignored (another platform's export has more); a missing required field is
 * a 400 naming all of them, and so is a field two columns hold (`amount` and `Amount`, or a column
 * mapped to amount beside one named so): which of them to read is the file's author's to say.
 */
export function columnsOf(header: string[], kind: ImportKind, mapping: Record<string, string> | null): Array<string | null> {
  const fields = [...COLUMNS[kind].required, ...COLUMNS[kind].optional];
  // a mapping's keys found as the file's headers are (a key copied with the header's trailing space, or in another letter case)
  const mapped = new Map(Object.entries(mapping ?? {}).map(([h, field]) => [headerKey(h), field]));
  const columns = header.map((h) => {
    const field = mapped.get(headerKey(h)) ?? headerKey(h);
    return fields.includes(field) ? field : null;
  });
  const missing = COLUMNS[kind].required.filter((f) => !columns.includes(f));
  if (kind === 'payments' && !columns.includes('payg') && !columns.includes('customerid')) missing.push('payg (or customerid)');
  if (missing.length) throw invalid('IMPORT_COLUMNS_MISSING', `The file has no column for ${missing.join(', ')}${mapping ? '' : ' (a mapping can name them)'}.`);
  const twice = fields.filter((f) => columns.indexOf(f) !== columns.lastIndexOf(f));
  if (twice.length) {
    const named = (field: string) => listed(columns.flatMap((f, i) => (f === field ? [`${shownHeader(header[i])} (column ${i + 1})`] : [])));
    throw invalid('IMPORT_COLUMNS_TWICE', `The file has more than one column for ${twice.map((f) => `${f}: ${named(f)}`).join('; ')}. Keep one of them.`);
  }
  return columns;
}

/** A header as written, quoted, cut short: it goes into a message. */
const shownHeader = (h: string) => JSON.stringify(h.trim().length > 40 ? `${h.trim().slice(0, 40)}…` : h.trim());
const listed = (items: string[]) => `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** Reads one row's cells by field, checking them as the API checks the same fields; the errors go to `errors`. */
class Cells {
  constructor(
    private readonly row: number,
    private readonly values: Map<string, string>,
    private readonly errors: RowError[],
  ) {}

  fail(field: string, message: string): void {
    this.errors.push({ row: this.row, field, message });
  }

  private raw(field: string): string | undefined {
    const value = this.values.get(field);
    if (value === undefined) return undefined;
    if (value.includes('\uFFFD')) {
      this.fail(field, `${field} is not valid UTF-8 text: save the file as CSV UTF-8`);
      return undefined;
    }
    return value;
  }

  text(field: string, options: { optional?: boolean; max?: number; oneLine?: boolean; nfc?: boolean } = {}): string | null {
    const value = this.raw(field);
    if (value === undefined && this.values.has(field)) return null;
    const refused = options.oneLine === false ? hasFreeTextForbidden : hasOneLineForbidden;
    if (value !== undefined && refused(value)) {
      this.fail(field, options.oneLine === false ? `${field} must not contain control characters other than tabs and line breaks` : `${field} must not contain line breaks or control characters`);
      return null;
    }
    const trimmed = options.nfc ? (value ?? '').trim().normalize('NFC') : (value ?? '').trim();
    if (trimmed === '') {
      if (!options.optional) this.fail(field, `${field} should not be empty`);
      return null;
    }
    const max = options.max ?? 255;
    if (textLength(trimmed) > max) {
      this.fail(field, `${field} must be shorter than or equal to ${max} characters`);
      return null;
    }
    return trimmed;
  }

  /** One of `values` as written (letter case as the API's), or null when the optional cell is empty or absent. */
  choice<T extends string>(field: string, values: readonly T[]): T | null {
    const typed = this.text(field, { optional: true });
    if (typed === null) return null;
    if (!values.includes(typed as T)) {
      this.fail(field, `${field} must be one of ${values.join(', ')}`);
      return null;
    }
    return typed as T;
  }

  /** A whole number from 0 to `max`; 0 when the optional cell is empty or absent. */
  count(field: string, max: number): number | null {
    const typed = this.text(field, { optional: true });
    if (typed === null) return 0;
    const n = /^[0-9]{1,6}$/.test(typed) ? Number(typed) : NaN;
    if (!(n <= max)) {
      this.fail(field, `${field} must be a whole number from 0 to ${max}`);
      return null;
    }
    return n;
  }

  telephone(field: string, defaultCountry: string): string | null {
    const typed = this.text(field);
    if (typed === null) return null;
    const telephone = normaliseTelephone(typed, defaultCountry);
    if (!telephone) this.fail(field, `${field} must be a valid telephone number: with its country code (+256772555001) or as dialled in ${defaultCountry}`);
    return telephone;
  }

  imei(field: string): string | null {
    const typed = this.text(field);
    if (typed === null) return null;
    const imei = normaliseImei(typed);
    if (!imei) this.fail(field, `${field} must be 15 digits with a valid check digit`);
    return imei;
  }

  payg(field: string, optional = false): string | null {
    const typed = this.text(field, { optional });
    if (typed === null) return null;
    const payg = normalisePayg(typed);
    if (!payg) this.fail(field, `${field} must be 3–64 letters, digits, dashes or underscores`);
    return payg;
  }

  id(field: string, optional = false): number | null {
    const typed = this.text(field, { optional });
    if (typed === null) return null;
    const id = /^[0-9]{1,10}$/.test(typed) ? Number(typed) : NaN;
    if (!(id >= 1 && id <= 2_147_483_647)) {
      this.fail(field, `${field} must be an integer from 1 to 2147483647`);
      return null;
    }
    return id;
  }

  /** An amount as the API takes it (> 0, ≤ 1,000,000,000, at most 2 decimals), written as plain digits; null when an optional cell is empty or absent. */
  money(field: string, optional = false): Money | null {
    const typed = this.text(field, { optional });
    if (typed === null) return null;
    if (!/^-?[0-9]+(\.[0-9]+)?$/.test(typed)) {
      this.fail(field, `${field} must be a number`);
      return null;
    }
    if (/\.[0-9]{3,}$/.test(typed)) {
      this.fail(field, `${field} must be a number with at most 2 decimal places`);
      return null;
    }
    const amount = Money.of(typed);
    if (!amount.isPositive()) this.fail(field, `${field} must be a positive number`);
    else if (amount.gt(Money.of(MAX_AMOUNT))) this.fail(field, `${field} must not exceed ${MAX_AMOUNT}`);
    else return amount;
    return null;
  }

  /** A calendar day YYYY-MM-DD, not after today. */
  pastDate(field: string, today: string): string | null {
    const typed = this.text(field);
    if (typed === null) return null;
    if (!isValidDate(typed)) {
      this.fail(field, `${field} must be a date YYYY-MM-DD`);
      return null;
    }
    if (typed > today) {
      this.fail(field, `${field} must not be in the future (today is ${today})`);
      return null;
    }
    return typed;
  }
}

const optOut = (typed: 'true' | 'false' | null): boolean | null => (typed === null ? null : typed === 'true');

export interface RowContext {
  today: string;
  defaultCountry: string;
  bonusDaysMax: number;
}

function cellsOf(record: string[], columns: Array<string | null>): Map<string, string> {
  const values = new Map<string, string>();
  columns.forEach((field, i) => {
    if (field !== null) values.set(field, unescapeCell(record[i] ?? ''));
  });
  return values;
}

/** One customers row checked field by field; null when any field is bad (its errors are in `errors`). */
export function readCustomerRow(row: number, record: string[], columns: Array<string | null>, context: RowContext, errors: RowError[]): CustomerRow | null {
  const before = errors.length;
  const c = new Cells(row, cellsOf(record, columns), errors);
  const parsed = {
    row,
    externalid: c.text('externalid', { max: EXTERNALID_MAX }),
    fullname: c.text('fullname', { nfc: true }),
    telephone: c.telephone('telephone', context.defaultCountry),
    guarantorname: c.text('guarantorname', { nfc: true }),
    guarantorcontact: c.telephone('guarantorcontact', context.defaultCountry),
    imei: c.imei('imei'),
    payg: c.payg('payg'),
    serialnumber: c.text('serialnumber', { optional: true }),
    dealid: c.id('dealid'),
    depositpaid: c.money('depositpaid'),
    amountpaid: c.money('amountpaid'),
    startdate: c.pastDate('startdate', context.today),
    salesstage: c.choice('salesstage', SALES_STAGES),
    bonusdays: c.count('bonusdays', context.bonusDaysMax),
    language: c.choice('language', LANGUAGES),
    smsoptout: optOut(c.choice('smsoptout', ['true', 'false'])),
    totalamount: c.money('totalamount', true),
    monthly: c.money('monthly', true),
  };
  if (parsed.depositpaid && parsed.amountpaid && parsed.amountpaid.lt(parsed.depositpaid)) {
    c.fail('amountpaid', 'amountpaid must be at least depositpaid (it includes the deposit)');
  }
  const status = c.choice('status', CUSTOMER_STATUSES);
  const dealstatus = c.choice('dealstatus', Object.values(DealStatus));
  // a repossession is the one state the credit policy cannot work out from the money: both columns, when given, must say it
  const repossessed = status === CustomerStatus.REPOSSESSED || dealstatus === DealStatus.REPOSSESSED;
  if (repossessed && status !== null && dealstatus !== null && status !== dealstatus) {
    c.fail('status', `status ${status} and dealstatus ${dealstatus} disagree: a repossessed deal's customer is REPOSSESSED`);
  }
  if (errors.length !== before) return null;
  return { ...parsed, status: repossessed ? CustomerStatus.REPOSSESSED : (status ?? CustomerStatus.PENDING), repossessed, dealstatus } as CustomerRow;
}

export function readPaymentRow(row: number, record: string[], columns: Array<string | null>, context: RowContext, errors: RowError[]): PaymentRow | null {
  const before = errors.length;
  const c = new Cells(row, cellsOf(record, columns), errors);
  const parsed = {
    row,
    externalid: c.text('externalid', { max: EXTERNALID_MAX }),
    payg: c.payg('payg', true),
    customerid: c.id('customerid', true),
    amount: c.money('amount'),
    reference: c.text('reference'),
    narration: c.text('narration', { optional: true, oneLine: false }) ?? '',
    date: c.pastDate('date', context.today),
  };
  if (errors.length === before && parsed.payg === null && parsed.customerid === null) c.fail('payg', 'payg (or customerid) should not be empty');
  return errors.length === before ? (parsed as PaymentRow) : null;
}

/** Values that must be unique within the file: the first row keeps it, every later one is an error. */
export class UniqueInFile {
  private readonly seen = new Map<string, number>();

  constructor(private readonly field: string, private readonly label: string) {}

  check(row: number, key: string | null, shown: string, errors: RowError[]): boolean {
    if (key === null) return true;
    const first = this.seen.get(key);
    if (first !== undefined) {
      errors.push({ row, field: this.field, message: `${this.label} ${shown} is also in row ${first} of this file.` });
      return false;
    }
    this.seen.set(key, row);
    return true;
  }
}

/**
 * The devices (IMEIs) of one file, by the rule that holds against the book (DESIGN part 10: one IMEI
 * on one deal that is not PAID_OFF or REPOSSESSED): a device sold again after its deal closed is on
 * two rows, the closed deal's first, as an export of such a book writes them. A later row may repeat
 * an IMEI only on a deal still being paid for, after rows whose deals were all closed; a closed deal
 * after another deal on the device would become its newest and command it over that one.
 */
export class DevicesInFile {
  /** per IMEI: its row with a deal still being paid for, else its latest row (a closed deal) */
  private readonly seen = new Map<string, { row: number; open: boolean }>();

  check(row: number, imei: string, open: boolean, errors: RowError[]): boolean {
    const earlier = this.seen.get(imei);
    if (earlier?.open) {
      errors.push({ row, field: 'imei', message: `IMEI ${imei} is also in row ${earlier.row} of this file.` });
      return false;
    }
    if (earlier && !open) {
      errors.push({ row, field: 'imei', message: `IMEI ${imei} is on a deal in row ${earlier.row} of this file: a repossessed or paid-off deal cannot be imported onto it.` });
      return false;
    }
    this.seen.set(imei, { row, open });
    return true;
  }
}

/**
 * What a customers row states about its deal that the deal must bear out: the terms (an export of
 * another book names its deals by that book's ids, which may be other deals here) and whether it is
 * paid off (the file's PAID_OFF with less paid than the total would be brought in locked, and the
 * other way round released). The deal's own terms are used, never the file's: a disagreement is an error.
 */
export function dealDisagreements(r: CustomerRow, dealid: number, terms: { totalamount: Money; monthly: Money }): Array<{ field: string; message: string }> {
  const found: Array<{ field: string; message: string }> = [];
  const other = "the file's deal is another one";
  if (r.totalamount && !r.totalamount.eq(terms.totalamount)) {
    found.push({ field: 'totalamount', message: `totalamount ${r.totalamount.toFixed()} is not the total of deal ${dealid} (${terms.totalamount.toFixed()}): ${other}` });
  }
  if (r.monthly && !r.monthly.eq(terms.monthly)) found.push({ field: 'monthly', message: `monthly ${r.monthly.toFixed()} is not the monthly of deal ${dealid} (${terms.monthly.toFixed()}): ${other}` });
  const paidOff = r.amountpaid.gte(terms.totalamount);
  if (r.dealstatus !== null && r.dealstatus !== DealStatus.REPOSSESSED && (r.dealstatus === DealStatus.PAID_OFF) !== paidOff) {
    found.push({ field: 'dealstatus', message: `dealstatus ${r.dealstatus} disagrees with amountpaid ${r.amountpaid.toFixed()}: deal ${dealid}'s total is ${terms.totalamount.toFixed()}` });
  }
  return found;
}
