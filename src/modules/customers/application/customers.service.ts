import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { uniqueConstraintOf } from '../../../common/database/postgres-errors.js';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { normaliseImei } from '../../../common/identifiers/imei.js';
import { normaliseTelephone } from '../../../common/identifiers/telephone.js';
import { AppConfig } from '../../../config/app-config.js';
import { AccountsService } from '../../accounts/application/accounts.service.js';
import { ContractsService } from '../../contracts/application/contracts.service.js';
import { DealEvents } from '../../contracts/application/deal-events.js';
import { DealStatus } from '../../contracts/domain/credit-policy.js';
import { DealsService } from '../../deals/application/deals.service.js';
import { checkRegistrationDeposit } from '../../deals/domain/deal.js';
import { UsersService } from '../../users/application/users.service.js';
import { approve, accountNotFound, CUSTOMER_STATUSES, CustomerIdentity, CustomerStatus, customerNotFound, duplicateRegistration, SalesStage, telephonesOf } from '../domain/customer.js';
import { CustomerFilter, CustomersRepository } from '../infrastructure/customers.repository.js';
import { AccountView, accountView, CustomerView, customerView } from './customer-views.js';

export interface RegistrationInput extends CustomerIdentity {
  dealid: number;
  deposit: number;
}

/** One customer of an import, checked by the import already (DESIGN part 12). */
export interface ImportedCustomerInput extends Omit<RegistrationInput, 'deposit'> {
  serialnumber: string | null;
  depositpaid: Money;
  amountpaid: Money;
  startdate: string;
  openingReference: string;
  /** as the book had it: APPROVED kept, REPOSSESSED with `repossessed` */
  status: CustomerStatus;
  salesstage: SalesStage | null;
  repossessed: boolean;
  bonusdays: number;
}

@Injectable()
export class CustomersService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly customers: CustomersRepository,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly deals: DealsService,
    private readonly contracts: ContractsService,
    private readonly dealEvents: DealEvents,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // a repossessed contract repossesses its customer, in the same transaction
    this.dealEvents.subscribe(async (em, change) => {
      if (change.after.status === DealStatus.REPOSSESSED && change.before.status !== DealStatus.REPOSSESSED) await this.customers.markRepossessed(change.customerId, em);
    });
  }

  /**
   * Registers a customer in one transaction: their User (username = telephone, no password),
   * Account, Customer (PENDING), and their contract (contracts: the CustomerDeal, LOCKED, terms
   * copied from the deal, and the deposit as the first ledger row). Any failure leaves nothing behind. Telephones are stored in E.164; the
   * unique keys on telephone, PAYG code (any letter case) and the IMEI of a deal still being paid
   * decide between concurrent registrations of the same phone.
   */
  async register(typed: RegistrationInput, actor: AuthUser): Promise<{ message: string; customerid: number }> {
    const customerid = await this.dataSource.transaction((em) => this.registerIn(em, { ...typed, deposit: Money.of(typed.deposit) }, actor));
    return { message: 'Customer registered successfully.', customerid };
  }

  /**
   * Registers an import's customers (DESIGN part 12) inside the import's transaction, many a
   * statement: as register() for each, with the same deal checks, but each contract keeps its
   * `startdate`, what was paid before beyond the deposit is one OPENING ledger row under its
   * `openingReference`, the credit policy sets the state as of today, and the device is told its
   * state (ContractsService.openMigrated). Identifier clashes are the same 409s. About ten round
   * trips for any number of rows; the ids answered in the order of `rows`. `beforeOpened` records
   * what the caller knows of the new customers (an import's message preferences) before their
   * contracts open, so that the welcome a notify=true import sends is in the customer's language.
   */
  async registerImported(
    em: EntityManager,
    rows: ImportedCustomerInput[],
    actor: AuthUser,
    options: { notify: boolean; beforeOpened?: (customerIds: number[]) => Promise<void> },
  ): Promise<number[]> {
    if (rows.length === 0) return [];
    // the import has read every telephone into E.164 already (the same normaliseTelephone as telephonesOf)
    const inputs = rows;
    const deals = new Map<number, Awaited<ReturnType<DealsService['activeDealForRegistration']>>>();
    for (const dealid of new Set(inputs.map((r) => r.dealid))) deals.set(dealid, await this.deals.activeDealForRegistration(dealid, em));
    for (const r of inputs) checkRegistrationDeposit(deals.get(r.dealid)!.terms, r.depositpaid);
    try {
      const userIds = await this.users.createCustomerIdentities(inputs.map((r) => r.telephone), em);
      const accounts = await this.accounts.openMany(em, inputs.length);
      const customerIds = await this.customers.insertCustomers(
        em,
        inputs.map((r, i) => ({ ...r, userId: userIds[i], accountId: accounts[i].accountid, createdBy: actor.id })),
      );
      await options.beforeOpened?.(customerIds);
      await this.contracts.openMigrated(
        em,
        inputs.map((r, i) => {
          const deal = deals.get(r.dealid)!;
          return {
            customerId: customerIds[i],
            accountnumber: accounts[i].accountnumber,
            imei: r.imei,
            payg: r.payg,
            deal: { dealid: deal.dealid, dealname: deal.dealname, ...deal.terms },
            deposit: r.depositpaid,
            createdBy: actor.id,
            startdate: r.startdate,
            amountpaid: r.amountpaid,
            openingReference: r.openingReference,
            serialnumber: r.serialnumber,
            bonusdays: r.bonusdays,
            repossessed: r.repossessed,
          };
        }),
        { notify: options.notify },
      );
      return customerIds;
    } catch (error) {
      // which row ran into the key: PostgreSQL names its value in the detail, "Key (…)=(value) already exists."
      const value = /=\((.*)\) already exists/.exec((error as { detail?: string }).detail ?? '')?.[1]?.toLowerCase();
      const row = inputs.find((r) => [r.telephone, r.imei, r.payg].some((v) => v.toLowerCase() === value)) ?? inputs[0];
      throw duplicateRegistration(uniqueConstraintOf(error), row) ?? error;
    }
  }

  /**
   * One registration in the caller's transaction: their User (username = telephone, no password),
   * Account, Customer (PENDING), and their contract (contracts: the CustomerDeal, terms copied from the
   * deal, and the deposit as the first ledger row). Telephones are stored in E.164; the unique keys on
   * telephone, PAYG code (any letter case) and the IMEI of a deal still being paid decide between
   * concurrent registrations of the same phone.
   */
  private async registerIn(em: EntityManager, typed: Omit<RegistrationInput, 'deposit'> & { deposit: Money }, actor: AuthUser): Promise<number> {
    const input = telephonesOf(typed, this.config.defaultCountry);
    try {
      const deal = await this.deals.activeDealForRegistration(input.dealid, em);
      checkRegistrationDeposit(deal.terms, input.deposit);
      const userId = await this.users.createCustomerIdentity(input.telephone, em);
      const account = await this.accounts.open(em);
      const customerId = await this.customers.insertCustomer(em, {
        userId,
        accountId: account.accountid,
        fullname: input.fullname,
        telephone: input.telephone,
        guarantorname: input.guarantorname,
        guarantorcontact: input.guarantorcontact,
        imei: input.imei,
        payg: input.payg,
        createdBy: actor.id,
      });
      const terms = { dealid: deal.dealid, dealname: deal.dealname, ...deal.terms };
      const opening = { customerId, imei: input.imei, payg: input.payg, deal: terms, deposit: input.deposit, createdBy: actor.id, accountnumber: account.accountnumber };
      await this.contracts.open(em, opening);
      return customerId;
    } catch (error) {
      throw duplicateRegistration(uniqueConstraintOf(error), input) ?? error;
    }
  }

  /** For imports: which of these telephones (E.164), PAYG codes (any letter case) and IMEIs of deals still being paid are taken, and which IMEIs any deal has. */
  takenIdentifiers(candidates: { telephones: string[]; paygs: string[]; imeis: string[] }, em?: EntityManager): Promise<{ telephones: Set<string>; paygs: Set<string>; imeis: Set<string>; knownImeis: Set<string> }> {
    return this.customers.takenIdentifiers(candidates, em);
  }

  /** For imports: the customers holding these PAYG codes (by lower case) and which of these ids exist. */
  customersByPaygsOrIds(paygs: string[], ids: number[], em?: EntityManager): Promise<{ byPayg: Map<string, number>; ids: Set<number> }> {
    return this.customers.byPaygsOrIds(paygs, ids, em);
  }

  /** `em`: read inside the caller's transaction (a customer being registered). */
  async get(customerId: number, em?: EntityManager): Promise<CustomerView> {
    const row = await this.customers.findById(customerId, em);
    if (!row) throw customerNotFound(customerId);
    return customerView(row);
  }

  async findByAccountNumber(accountnumber: string): Promise<CustomerView> {
    const row = await this.customers.findByAccountNumber(accountnumber);
    if (!row) throw accountNotFound(accountnumber);
    return customerView(row);
  }

  async accountInfo(accountId: number): Promise<AccountView> {
    const row = await this.customers.findByAccountId(accountId);
    if (!row) throw accountNotFound(String(accountId));
    return accountView(row);
  }

  /** A search that is a whole telephone number or IMEI as typed also finds its stored form. */
  async list(filter: CustomerFilter, page: number, limit: number): Promise<Page<CustomerView>> {
    const search = filter.search;
    const stored = search ? { telephone: normaliseTelephone(search, this.config.defaultCountry) ?? undefined, imei: normaliseImei(search) ?? undefined } : {};
    const { rows, total } = await this.customers.list({ ...filter, ...stored }, page, limit);
    return { items: rows.map(customerView), total, page, limit };
  }

  /** Every status with its count, zeros included, from one GROUP BY. */
  async statusSummary(): Promise<Record<CustomerStatus, number>> {
    const summary = Object.fromEntries(CUSTOMER_STATUSES.map((s) => [s, 0])) as Record<CustomerStatus, number>;
    for (const { status, n } of await this.customers.statusCounts()) summary[status] = n;
    return summary;
  }

  async approve(customerId: number): Promise<CustomerView> {
    await this.dataSource.transaction(async (em) => {
      const status = await this.customers.lockStatus(customerId, em);
      if (!status) throw customerNotFound(customerId);
      await this.customers.setStatus(customerId, approve(status, customerId), em);
    });
    return this.get(customerId);
  }

  async setSalesStage(customerId: number, salesstage: SalesStage): Promise<CustomerView> {
    if (!(await this.customers.setSalesStage(customerId, salesstage))) throw customerNotFound(customerId);
    return this.get(customerId);
  }

  /** Stores the final PAYG code and serial number; a PAYG code another customer holds, in any letter case, is a 409. */
  async setDevice(em: EntityManager, customerId: number, payg: string, serialnumber: string): Promise<void> {
    let found: boolean;
    try {
      found = await this.customers.setDevice(customerId, payg, serialnumber, em);
    } catch (error) {
      const duplicate = duplicateRegistration(uniqueConstraintOf(error), { telephone: '', imei: '', payg });
      if (duplicate) throw duplicate;
      throw error;
    }
    if (!found) throw customerNotFound(customerId);
  }

  /** Whether some customer's PAYG code is this tag (letter case ignored), read in the caller's transaction. */
  hasTag(em: EntityManager, tag: string): Promise<boolean> {
    return this.customers.hasTag(em, tag);
  }

  async assertExists(customerId: number, em?: EntityManager): Promise<void> {
    if (!(await this.customers.exists(customerId, em))) throw customerNotFound(customerId);
  }
}
