import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Money } from '../../../common/money/money.js';
import { Page } from '../../../common/http/pagination.js';
import { checkDealTerms, dealInactive, dealNotFound, DealTerms } from '../domain/deal.js';
import { DealEntity } from '../infrastructure/deal.entity.js';
import { DealsRepository } from '../infrastructure/deals.repository.js';

export interface DealView {
  dealid: number;
  dealname: string;
  totalamount: number;
  deposit: number;
  monthly: number;
  months: number;
  active: boolean;
}

export interface ActiveDeal {
  dealid: number;
  dealname: string;
  terms: DealTerms;
}

@Injectable()
export class DealsService {
  constructor(private readonly deals: DealsRepository) {}

  static view(deal: DealEntity): DealView {
    return {
      dealid: deal.id,
      dealname: deal.dealname,
      totalamount: Money.of(deal.totalamount).toNumber(),
      deposit: Money.of(deal.deposit).toNumber(),
      monthly: Money.of(deal.monthly).toNumber(),
      months: deal.months,
      active: deal.active,
    };
  }

  async create(input: { dealname: string; totalamount: number; deposit: number; monthly: number; months: number }, userId: number): Promise<DealView> {
    const terms: DealTerms = { totalamount: Money.of(input.totalamount), deposit: Money.of(input.deposit), monthly: Money.of(input.monthly), months: input.months };
    checkDealTerms(terms);
    const deal = await this.deals.insert({
      dealname: input.dealname,
      totalamount: terms.totalamount.toFixed(),
      deposit: terms.deposit.toFixed(),
      monthly: terms.monthly.toFixed(),
      months: terms.months,
      createdBy: userId,
    });
    return DealsService.view(deal);
  }

  /** Idempotent: deactivating a deactivated deal answers the same. Customers already on it keep their terms. */
  async deactivate(id: number): Promise<DealView> {
    const deal = await this.deals.findById(id);
    if (!deal) throw dealNotFound(id);
    if (deal.active) await this.deals.deactivate(id);
    return DealsService.view({ ...deal, active: false });
  }

  async list(page: number, limit: number, active?: boolean): Promise<Page<DealView>> {
    const [rows, total] = await this.deals.list(page, limit, active);
    return { items: rows.map(DealsService.view), total, page, limit };
  }

  /** The terms a new customer signs up to, inside the registration transaction: 404 unknown, 409 deactivated. */
  async activeDealForRegistration(id: number, em: EntityManager): Promise<ActiveDeal> {
    const deal = await this.deals.findByIdForShare(id, em);
    if (!deal) throw dealNotFound(id);
    if (!deal.active) throw dealInactive(id);
    return {
      dealid: deal.id,
      dealname: deal.dealname,
      terms: { totalamount: Money.of(deal.totalamount), deposit: Money.of(deal.deposit), monthly: Money.of(deal.monthly), months: deal.months },
    };
  }
}
