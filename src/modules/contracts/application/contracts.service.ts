import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { DealStateService } from '../../customers/application/deal-state.service.js';

/** A customer's contract is their deal: repossession ends it for good. */
@Injectable()
export class ContractsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dealState: DealStateService,
  ) {}

  /** Contract, deal and customer REPOSSESSED with reason and time; PERMANENT_LOCK queued; a second time 409. */
  async repossess(customerId: number, reason: string, actor: AuthUser) {
    const { deal, repossessedat } = await this.dataSource.transaction((em) => this.dealState.repossess(em, customerId, reason, actor));
    return { message: 'Contract repossessed; the device will be locked permanently.', customerid: customerId, status: 'REPOSSESSED', reason, repossessedat: repossessedat.toISOString(), deal };
  }
}
