import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { uniqueConstraintOf } from '../../../common/database/postgres-errors.js';
import { Page } from '../../../common/http/pagination.js';
import { Money } from '../../../common/money/money.js';
import { businessDay } from '../../../common/time/business-date.js';
import { Clock } from '../../../common/time/clock.js';
import { normaliseImei } from '../../../common/identifiers/imei.js';
import { normaliseTelephone } from '../../../common/identifiers/telephone.js';
import { AppConfig } from '../../../config/app-config.js';
import { AccountsService } from '../../accounts/application/accounts.service.js';
import { LedgerService } from '../../accounts/application/ledger.service.js';
import { PaymentType } from '../../accounts/infrastructure/payment.entity.js';
import { DealsService } from '../../deals/application/deals.service.js';
import { DeviceCommandsService } from '../../device-commands/application/device-commands.service.js';
import { DeviceAction } from '../../device-commands/domain/device-command.js';
import { checkRegistrationDeposit } from '../../deals/domain/deal.js';
import { UsersService } from '../../users/application/users.service.js';
import { approve, accountNotFound, CUSTOMER_STATUSES, CustomerStatus, customerNotFound, duplicateRegistration, SalesStage, telephonesOf } from '../domain/customer.js';
import { DealStatus, deriveDealState } from '../domain/credit-policy.js';
import { CustomerDealsRepository } from '../infrastructure/customer-deals.repository.js';
import { DealEvents } from './deal-events.js';
import { CustomerFilter, CustomersRepository } from '../infrastructure/customers.repository.js';
import { AccountView, accountView, CustomerView, customerView } from './customer-views.js';

export interface RegistrationInput {
  fullname: string;
  telephone: string;
  dealid: number;
  deposit: number;
  guarantorname: string;
  guarantorcontact: string;
  imei: string;
  payg: string;
}

@Injectable()
export class CustomersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly customers: CustomersRepository,
    private readonly customerDeals: CustomerDealsRepository,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly deals: DealsService,
    private readonly commands: DeviceCommandsService,
    private readonly events: DealEvents,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The business day now, in BUSINESS_TIMEZONE: it decides due dates and unlocks. */
  today(): string {
    return businessDay(this.clock.now(), this.config.businessTimeZone);
  }

  /**
   * Registers a customer in one transaction: their User (username = telephone, no password),
   * Account, Customer (PENDING), CustomerDeal (LOCKED, terms copied from the deal) and the deposit
   * as the first ledger row. Any failure leaves nothing behind. Telephones are stored in E.164; the
   * unique keys on telephone, PAYG code (any letter case) and the IMEI of a deal still being paid
   * decide between concurrent registrations of the same phone.
   */
  async register(typed: RegistrationInput, actor: AuthUser): Promise<{ message: string; customerid: number }> {
    const input = telephonesOf(typed, this.config.defaultCountry);
    const deposit = Money.of(input.deposit);
    try {
      const customerid = await this.dataSource.transaction(async (em) => {
        const deal = await this.deals.activeDealForRegistration(input.dealid, em);
        checkRegistrationDeposit(deal.terms, deposit);
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
        const startdate = this.today();
        const terms = { totalamount: deal.terms.totalamount, monthly: deal.terms.monthly, depositpaid: deposit, startdate };
        const state = deriveDealState(terms, [deposit], 0, startdate, false);
        const customerDealId = await this.customerDeals.insert(em, {
          customerId,
          imei: input.imei,
          dealId: deal.dealid,
          dealname: deal.dealname,
          totalamount: terms.totalamount.toFixed(),
          monthly: terms.monthly.toFixed(),
          depositpaid: deposit.toFixed(),
          startdate,
          status: state.status,
          amountpaid: state.amountpaid.toFixed(),
          balance: state.balance.toFixed(),
          overpaid: state.overpaid.toFixed(),
          bonusdays: 0,
          nextpaymentdate: state.nextpaymentdate,
        });
        await this.ledger.record(em, {
          customerId,
          customerDealId,
          amount: deposit,
          reference: `DEPOSIT-${customerId}`,
          narration: 'Deposit at registration',
          type: PaymentType.DEPOSIT,
          createdBy: actor.id,
        });
        // a deposit of the whole price is a cash sale: the device is released at once
        if (state.status === DealStatus.PAID_OFF) {
          const device = { customerId, imei: input.imei, serialnumber: null, payg: input.payg };
          await this.commands.enqueue(em, { device, action: DeviceAction.RELEASE, nextpaymentdate: state.nextpaymentdate, reason: 'paid in full at registration', createdBy: actor.id });
        }
        // payments that arrived under this PAYG code before the customer existed are applied now
        await this.events.dealOpened(em, { customerId, payg: input.payg });
        return customerId;
      });
      return { message: 'Customer registered successfully.', customerid: customerid };
    } catch (error) {
      throw duplicateRegistration(uniqueConstraintOf(error), input) ?? error;
    }
  }

  /**
   * Registers a customer brought in by an import (DESIGN part 12), inside the import's transaction:
   * as register(), but the deal keeps its `startdate`, what was paid before beyond the deposit is one
   * OPENING ledger row under `openingReference`, the credit policy sets the state as of today, and the
   * device is told its state (SYNC; RELEASE when paid off). Identifier clashes are the same 409s.
   */
  async registerImported(
    em: EntityManager,
    typed: Omit<RegistrationInput, 'deposit'> & { serialnumber: string | null; depositpaid: Money; amountpaid: Money; startdate: string; openingReference: string },
    actor: AuthUser,
  ): Promise<number> {
    const input = telephonesOf(typed, this.config.defaultCountry);
    try {
      const deal = await this.deals.activeDealForRegistration(input.dealid, em);
      checkRegistrationDeposit(deal.terms, input.depositpaid);
      const userId = await this.users.createCustomerIdentity(input.telephone, em);
      const account = await this.accounts.open(em);
      const customerId = await this.customers.insertCustomer(em, { ...input, userId, accountId: account.accountid, createdBy: actor.id });
      if (input.serialnumber) await this.customers.setDevice(customerId, input.payg, input.serialnumber, em);
      const terms = { totalamount: deal.terms.totalamount, monthly: deal.terms.monthly, depositpaid: input.depositpaid, startdate: input.startdate };
      const state = deriveDealState(terms, [input.amountpaid], 0, this.today(), false);
      const customerDealId = await this.customerDeals.insert(em, {
        ...terms, customerId, imei: input.imei, dealId: deal.dealid, dealname: deal.dealname, totalamount: terms.totalamount.toFixed(), monthly: terms.monthly.toFixed(),
        depositpaid: input.depositpaid.toFixed(), status: state.status, amountpaid: state.amountpaid.toFixed(), balance: state.balance.toFixed(), overpaid: state.overpaid.toFixed(), bonusdays: 0, nextpaymentdate: state.nextpaymentdate,
      });
      const entry = { customerId, customerDealId, narration: '', createdBy: actor.id };
      await this.ledger.record(em, { ...entry, amount: input.depositpaid, reference: `DEPOSIT-${customerId}`, narration: 'Deposit at registration', type: PaymentType.DEPOSIT });
      const opening = input.amountpaid.minus(input.depositpaid);
      if (opening.isPositive()) await this.ledger.record(em, { ...entry, amount: opening, reference: input.openingReference, narration: 'Paid before the import', type: PaymentType.OPENING });
      const device = { customerId, imei: input.imei, serialnumber: input.serialnumber, payg: input.payg };
      const action = state.status === DealStatus.PAID_OFF ? DeviceAction.RELEASE : DeviceAction.SYNC;
      await this.commands.enqueue(em, { device, action, nextpaymentdate: state.nextpaymentdate, reason: 'imported', createdBy: actor.id });
      await this.events.dealOpened(em, { customerId, payg: input.payg });
      return customerId;
    } catch (error) {
      throw duplicateRegistration(uniqueConstraintOf(error), input) ?? error;
    }
  }

  /** For imports: which of these telephones (E.164), PAYG codes (any letter case) and IMEIs of deals still being paid are taken. */
  takenIdentifiers(candidates: { telephones: string[]; paygs: string[]; imeis: string[] }, em?: EntityManager): Promise<{ telephones: Set<string>; paygs: Set<string>; imeis: Set<string> }> {
    return this.customers.takenIdentifiers(candidates, em);
  }

  /** For imports: the customers holding these PAYG codes (by lower case) and which of these ids exist. */
  customersByPaygsOrIds(paygs: string[], ids: number[], em?: EntityManager): Promise<{ byPayg: Map<string, number>; ids: Set<number> }> {
    return this.customers.byPaygsOrIds(paygs, ids, em);
  }

  async get(customerId: number): Promise<CustomerView> {
    const row = await this.customers.findById(customerId);
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

  /** For other modules: the customer holding a PAYG code (any letter case, spaces around it ignored). */
  customerIdByPayg(payg: string, em?: EntityManager): Promise<number | null> {
    return this.customers.idByPayg(payg, em);
  }

  async markRepossessed(em: EntityManager, customerId: number): Promise<void> {
    await this.customers.markRepossessed(customerId, em);
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

  async assertExists(customerId: number, em?: EntityManager): Promise<void> {
    if (!(await this.customers.exists(customerId, em))) throw customerNotFound(customerId);
  }
}
