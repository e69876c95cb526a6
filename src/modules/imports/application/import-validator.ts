import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError } from '../../../common/errors/domain-error.js';
import { paygKey } from '../../../common/identifiers/payg.js';
import { AppConfig } from '../../../config/app-config.js';
import { LedgerService } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { BusinessClock } from '../../../common/time/business-clock.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import { DealsService } from '../../deals/application/deals.service.js';
import { checkRegistrationDeposit } from '../../deals/domain/deal.js';
import { FileBytes, readCsv } from '../domain/csv-file.js';
import { columnsOf, CustomerRow, dealDisagreements, DevicesInFile, ImportKind, PaymentRow, readCustomerRow, readPaymentRow, RowError, RowErrors, UniqueInFile } from '../domain/import-file.js';
import { ImportsRepository } from '../infrastructure/imports.repository.js';

export interface Validated {
  rows: number;
  valid: number;
  skipped: number;
  /** every error found */
  errorcount: number;
  /** the first ERRORS_LISTED_MAX of them, by row */
  errors: RowError[];
}

/** The rows of one chunk that passed every check, in file order, to be applied. */
export interface CheckedChunk {
  customers: CustomerRow[];
  payments: PaymentRow[];
  /** rows of the chunk this source brought in before */
  skipped: number;
}

/** Rows read, checked against the book and (when applying) written per chunk. */
export const CHUNK_ROWS = 2000;

/** What must be unique within one file, and the deals read so far: kept across the chunks of a pass. */
interface FileState {
  externalids: UniqueInFile;
  telephones: UniqueInFile;
  paygs: UniqueInFile;
  imeis: DevicesInFile;
  references: UniqueInFile;
  deals: Map<number, Awaited<ReturnType<DealsService['activeDealForRegistration']>> | string>;
}

const newFileState = (): FileState => ({
  externalids: new UniqueInFile('externalid', 'externalid'),
  telephones: new UniqueInFile('telephone', 'Telephone'),
  paygs: new UniqueInFile('payg', 'PAYG code'),
  imeis: new DevicesInFile(),
  references: new UniqueInFile('reference', 'Reference'),
  deals: new Map(),
});

const messageOf = (error: unknown): string => {
  if (error instanceof DomainError) return error.message;
  throw error;
};

/**
 * Checks every row of a file by the API's rules and against the book: each bad cell is one error
 * with its row, field and the API's own message. All are counted; the first ERRORS_LISTED_MAX by
 * row are listed, so that neither the memory nor the answer grows with a file's errors. A row whose
 * externalid this source brought in before is skipped (overlapping files do not bring a customer in
 * twice).
 *
 * The file is read as a stream and checked CHUNK_ROWS rows at a time, so memory holds one chunk,
 * not the file. Validating writes nothing. Applying is a second pass over the same file in the
 * same transaction, after a first one found no error: each chunk is checked again exactly as the
 * first pass checked it and handed to `apply` before the next is read.
 */
@Injectable()
export class ImportValidator {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly customers: CustomersService,
    private readonly deals: DealsService,
    private readonly ledger: LedgerService,
    private readonly config: AppConfig,
    private readonly businessClock: BusinessClock,
  ) {}

  /**
   * `bytes`: the file as uploaded, or its stored copy read a slice at a time. `apply` takes each
   * checked chunk (an apply's second pass); `progress` hears how many rows are checked so far, at
   * most once every CHUNK_ROWS rows.
   */
  async validate(
    bytes: FileBytes,
    kind: ImportKind,
    source: string,
    mapping: Record<string, string> | null,
    em: EntityManager,
    { apply, progress }: { apply?: (chunk: CheckedChunk) => Promise<void>; progress?: (rows: number) => Promise<void> } = {},
  ): Promise<Validated> {
    const context = { today: this.businessClock.today(), defaultCountry: this.config.defaultCountry, bonusDaysMax: this.config.bonusDaysMax };
    const errors = new RowErrors();
    const state = newFileState();
    const read = kind === 'customers' ? readCustomerRow : readPaymentRow;
    let pending: Array<CustomerRow | PaymentRow> = [];
    let skipped = 0;
    let rowsRead = 0;
    let reported = 0;
    const check = async () => {
      const rows = pending;
      pending = [];
      const known = await this.imports.knownExternalIds(source, kind, rows.map((r) => r.externalid), em);
      const fresh = rows.filter((r) => !known.has(r.externalid));
      skipped += rows.length - fresh.length;
      const before = errors.count;
      const good = kind === 'customers' ? await this.checkCustomers(fresh as CustomerRow[], state, errors, em) : await this.checkPayments(fresh as PaymentRow[], state, errors, em);
      if (!apply) return;
      if (errors.count > before) throw new Error(`import: ${errors.count - before} errors in a chunk the first pass had passed`);
      await apply({ customers: kind === 'customers' ? (good as CustomerRow[]) : [], payments: kind === 'payments' ? (good as PaymentRow[]) : [], skipped: rows.length - fresh.length });
    };
    const file = await readCsv(bytes, (header) => {
      const columns = columnsOf(header, kind, mapping);
      return async (row, cells) => {
        const rowErrors: RowError[] = [];
        const value = read(row, cells, columns, context, rowErrors);
        if (value && state.externalids.check(row, value.externalid, value.externalid, rowErrors)) pending.push(value);
        errors.addRow(rowErrors);
        rowsRead++;
        if (pending.length >= CHUNK_ROWS) await check();
        // rows still waiting for their chunk's checks against the book are not done yet
        if (progress && rowsRead - pending.length - reported >= CHUNK_ROWS) await progress((reported = rowsRead - pending.length));
      };
    });
    if (pending.length > 0) await check();
    return { rows: file.records, valid: file.records - errors.rows, skipped, errorcount: errors.count, errors: errors.list() };
  }

  private async checkCustomers(rows: CustomerRow[], state: FileState, errors: RowErrors, em: EntityManager): Promise<CustomerRow[]> {
    const { telephones, paygs, imeis, deals } = state;
    const taken = await this.customers.takenIdentifiers({ telephones: rows.map((r) => r.telephone), paygs: rows.map((r) => r.payg), imeis: rows.map((r) => r.imei) }, em);
    for (const dealid of new Set(rows.map((r) => r.dealid))) {
      if (!deals.has(dealid)) deals.set(dealid, await this.deals.activeDealForRegistration(dealid, em).catch(messageOf));
    }
    return rows.filter((r) => {
      const rowErrors: RowError[] = [];
      const fail = (field: string, message: string) => rowErrors.push({ row: r.row, field, message });
      if (telephones.check(r.row, r.telephone, r.telephone, rowErrors) && taken.telephones.has(r.telephone)) fail('telephone', `Telephone ${r.telephone} is already registered.`);
      if (paygs.check(r.row, paygKey(r.payg), r.payg, rowErrors) && taken.paygs.has(paygKey(r.payg))) fail('payg', `PAYG code ${r.payg} is already assigned to another customer.`);
      const deal = deals.get(r.dealid)!;
      const closed = r.repossessed || (typeof deal !== 'string' && r.amountpaid.gte(deal.terms.totalamount));
      if (imeis.check(r.row, r.imei, !closed, rowErrors)) {
        if (taken.imeis.has(r.imei)) fail('imei', `IMEI ${r.imei} is already registered to another customer.`);
        else if (taken.knownImeis.has(r.imei) && closed) {
          // a closed deal brought in later would become the device's newest and command it over the deal the book has on it
          fail('imei', `IMEI ${r.imei} is on a deal this book has already: a repossessed or paid-off deal cannot be imported onto it.`);
        }
      }
      if (typeof deal === 'string') fail('dealid', deal);
      else {
        try {
          checkRegistrationDeposit(deal.terms, r.depositpaid);
        } catch (error) {
          fail('depositpaid', messageOf(error).replace(/^deposit/, 'depositpaid'));
        }
        for (const { field, message } of dealDisagreements(r, r.dealid, deal.terms)) fail(field, message);
      }
      errors.addRow(rowErrors);
      return rowErrors.length === 0;
    });
  }

  private async checkPayments(rows: PaymentRow[], state: FileState, errors: RowErrors, em: EntityManager): Promise<PaymentRow[]> {
    const { references } = state;
    const found = await this.customers.customersByPaygsOrIds(rows.flatMap((r) => (r.payg ? [r.payg] : [])), rows.flatMap((r) => (r.customerid ? [r.customerid] : [])), em);
    const used = await this.ledger.referencesUsed(PaymentType.MANUAL, rows.map((r) => r.reference), em);
    return rows.filter((r) => {
      const rowErrors: RowError[] = [];
      const fail = (field: string, message: string) => rowErrors.push({ row: r.row, field, message });
      const byPayg = r.payg ? found.byPayg.get(paygKey(r.payg)) : undefined;
      if (r.payg && byPayg === undefined) fail('payg', `No customer has PAYG code ${r.payg}.`);
      else if (r.customerid && !found.ids.has(r.customerid)) fail('customerid', `Customer ${r.customerid} not found.`);
      else if (r.payg && r.customerid && byPayg !== r.customerid) fail('customerid', `Customer ${r.customerid} does not hold PAYG code ${r.payg}.`);
      else r.customerid = byPayg ?? r.customerid;
      if (references.check(r.row, r.reference, r.reference, rowErrors) && used.has(r.reference)) fail('reference', `Reference ${r.reference} is already used by another payment.`);
      errors.addRow(rowErrors);
      return rowErrors.length === 0;
    });
  }
}
