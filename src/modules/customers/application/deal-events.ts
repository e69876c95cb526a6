import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DealState } from '../domain/credit-policy.js';

export interface DealChange {
  customerId: number;
  customerDealId: number;
  before: DealState;
  after: DealState;
  today: string;
}

export type DealChangeListener = (em: EntityManager, change: DealChange) => Promise<void>;

/**
 * Lets modules above customers react to a deal's change inside the same transaction (collections
 * resolves a call once the deal is up to date) without customers depending on them.
 */
@Injectable()
export class DealEvents {
  private readonly listeners: DealChangeListener[] = [];

  subscribe(listener: DealChangeListener): void {
    this.listeners.push(listener);
  }

  async dealChanged(em: EntityManager, change: DealChange): Promise<void> {
    for (const listener of this.listeners) await listener(em, change);
  }
}
