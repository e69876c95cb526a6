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
import { CsvFile } from '../domain/csv-file.js';
import { columnsOf, CustomerRow, ImportKind, PaymentRow, readCustomerRow, readPaymentRow, RowError, UniqueInFile } from '../domain/import-file.js';
import { ImportsRepository } from '../infrastructure/imports.repository.js';

export interface Validated {
  rows: number;
  valid: number;
  skipped: number;
  errors: RowError[];
  customers: CustomerRow[];
  payments: PaymentRow[];
}

const messageOf = (error: unknown): string => {
  if (error instanceof DomainError) return error.message;
  throw error;
};

/**
 * Checks every row of a file by the API's rules and against the book, writing nothing: each bad
 * cell is one error with its row, field and the API's own message. A row whose externalid this
 * source brought in before is skipped (overlapping files do not bring a customer in twice).
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

  async validate(file: CsvFile, kind: ImportKind, source: string, mapping: Record<string, string> | null, em: EntityManager): Promise<Validated> {
    const columns = columnsOf(file.header, kind, mapping);
    const context = { today: this.businessClock.today(), defaultCountry: this.config.defaultCountry };
    const errors: RowError[] = [];
    const read = kind === 'customers' ? readCustomerRow : readPaymentRow;
    const externalids = new UniqueInFile('externalid', 'externalid');
    let parsed: Array<CustomerRow | PaymentRow> = [];
    for (const { row, cells } of file.records) {
      const value = read(row, cells, columns, context, errors);
      if (value && externalids.check(row, value.externalid, value.externalid, errors)) parsed.push(value);
    }
    const known = await this.imports.knownExternalIds(source, kind, parsed.map((r) => r.externalid), em);
    const fresh = parsed.filter((r) => !known.has(r.externalid));
    const skipped = parsed.length - fresh.length;
    parsed = kind === 'customers' ? await this.checkCustomers(fresh as CustomerRow[], errors, em) : await this.checkPayments(fresh as PaymentRow[], errors, em);
    errors.sort((a, b) => a.row - b.row);
    const valid = file.records.length - new Set(errors.map((e) => e.row)).size;
    return {
      rows: file.records.length,
      valid,
      skipped,
      errors,
      customers: kind === 'customers' ? (parsed as CustomerRow[]) : [],
      payments: kind === 'payments' ? (parsed as PaymentRow[]) : [],
    };
  }

  private async checkCustomers(rows: CustomerRow[], errors: RowError[], em: EntityManager): Promise<CustomerRow[]> {
    const telephones = new UniqueInFile('telephone', 'Telephone');
    const paygs = new UniqueInFile('payg', 'PAYG code');
    const imeis = new UniqueInFile('imei', 'IMEI');
    const taken = await this.customers.takenIdentifiers({ telephones: rows.map((r) => r.telephone), paygs: rows.map((r) => r.payg), imeis: rows.map((r) => r.imei) }, em);
    const deals = new Map<number, Awaited<ReturnType<DealsService['activeDealForRegistration']>> | string>();
    for (const dealid of new Set(rows.map((r) => r.dealid))) {
      deals.set(dealid, await this.deals.activeDealForRegistration(dealid, em).catch(messageOf));
    }
    return rows.filter((r) => {
      const before = errors.length;
      const fail = (field: string, message: string) => errors.push({ row: r.row, field, message });
      if (telephones.check(r.row, r.telephone, r.telephone, errors) && taken.telephones.has(r.telephone)) fail('telephone', `Telephone ${r.telephone} is already registered.`);
      if (paygs.check(r.row, paygKey(r.payg), r.payg, errors) && taken.paygs.has(paygKey(r.payg))) fail('payg', `PAYG code ${r.payg} is already assigned to another customer.`);
      if (imeis.check(r.row, r.imei, r.imei, errors) && taken.imeis.has(r.imei)) fail('imei', `IMEI ${r.imei} is already registered to another customer.`);
      const deal = deals.get(r.dealid)!;
      if (typeof deal === 'string') fail('dealid', deal);
      else {
        try {
          checkRegistrationDeposit(deal.terms, r.depositpaid);
        } catch (error) {
          fail('depositpaid', messageOf(error).replace(/^deposit/, 'depositpaid'));
        }
      }
      return errors.length === before;
    });
  }

  private async checkPayments(rows: PaymentRow[], errors: RowError[], em: EntityManager): Promise<PaymentRow[]> {
    const references = new UniqueInFile('reference', 'Reference');
    const found = await this.customers.customersByPaygsOrIds(rows.flatMap((r) => (r.payg ? [r.payg] : [])), rows.flatMap((r) => (r.customerid ? [r.customerid] : [])), em);
    const used = await this.ledger.referencesUsed(PaymentType.MANUAL, rows.map((r) => r.reference), em);
    return rows.filter((r) => {
      const before = errors.length;
      const fail = (field: string, message: string) => errors.push({ row: r.row, field, message });
      const byPayg = r.payg ? found.byPayg.get(paygKey(r.payg)) : undefined;
      if (r.payg && byPayg === undefined) fail('payg', `No customer has PAYG code ${r.payg}.`);
      else if (r.customerid && !found.ids.has(r.customerid)) fail('customerid', `Customer ${r.customerid} not found.`);
      else if (r.payg && r.customerid && byPayg !== r.customerid) fail('customerid', `Customer ${r.customerid} does not hold PAYG code ${r.payg}.`);
      else r.customerid = byPayg ?? r.customerid;
      if (references.check(r.row, r.reference, r.reference, errors) && used.has(r.reference)) fail('reference', `Reference ${r.reference} is already used by another payment.`);
      return errors.length === before;
    });
  }
}
