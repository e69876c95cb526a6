import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Money } from '../../../common/money/money.js';
import { DealState } from '../domain/credit-policy.js';

export interface DealChange {
  customerId: number;
  customerDealId: number;
  before: DealState;
  after: DealState;
  today: string;
  /** the payment that made the change, when one did */
  payment?: { id: string; amount: Money };
}

export type DealChangeListener = (em: EntityManager, change: DealChange) => Promise<void>;

/** A customer registered with a deal and a PAYG code (the deposit is in the ledger already). */
export interface DealOpened {
  customerId: number;
  payg: string;
}

/** `notify`: whether the customers are told (a registration always; an import only when asked, DESIGN part 12). */
export type DealOpenedListener = (em: EntityManager, opened: DealOpened[], options: { notify: boolean }) => Promise<void>;

/**
 * Lets modules above customers react to a deal's change inside the same transaction (collections
 * resolves a call once the deal is up to date) without customers depending on them.
 */
@Injectable()
export class DealEvents {
  private readonly listeners: DealChangeListener[] = [];
  private readonly openedListeners: DealOpenedListener[] = [];

  subscribe(listener: DealChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * Payments applies what was paid under the new PAYG codes before the customers existed; messages
   * welcomes them. Listeners get the deals of one registration, or of an import's chunk, at once.
   */
  subscribeOpened(listener: DealOpenedListener): void {
    this.openedListeners.push(listener);
  }

  async dealOpened(em: EntityManager, opened: DealOpened): Promise<void> {
    await this.dealsOpened(em, [opened], { notify: true });
  }

  async dealsOpened(em: EntityManager, opened: DealOpened[], options: { notify: boolean }): Promise<void> {
    for (const listener of this.openedListeners) await listener(em, opened, options);
  }

  async dealChanged(em: EntityManager, change: DealChange): Promise<void> {
    for (const listener of this.listeners) await listener(em, change);
  }
}
