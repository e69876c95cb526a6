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

export type DealOpenedListener = (em: EntityManager, opened: DealOpened) => Promise<void>;

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

  /** Payments applies what was paid under the new PAYG code before the customer existed. */
  subscribeOpened(listener: DealOpenedListener): void {
    this.openedListeners.push(listener);
  }

  async dealOpened(em: EntityManager, opened: DealOpened): Promise<void> {
    for (const listener of this.openedListeners) await listener(em, opened);
  }

  async dealChanged(em: EntityManager, change: DealChange): Promise<void> {
    for (const listener of this.listeners) await listener(em, change);
  }
}
