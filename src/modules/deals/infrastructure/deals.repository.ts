import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DealEntity } from './deal.entity.js';

@Injectable()
export class DealsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(em?: EntityManager) {
    return (em ?? this.dataSource.manager).getRepository(DealEntity);
  }

  insert(deal: Pick<DealEntity, 'dealname' | 'totalamount' | 'deposit' | 'monthly' | 'months' | 'createdBy'>): Promise<DealEntity> {
    const repo = this.repo();
    return repo.save(repo.create({ ...deal, active: true }));
  }

  findById(id: number, em?: EntityManager): Promise<DealEntity | null> {
    return this.repo(em).findOne({ where: { id } });
  }

  /** Registration reads the deal under a share lock so a concurrent deactivation waits for it. */
  findByIdForShare(id: number, em: EntityManager): Promise<DealEntity | null> {
    return this.repo(em).createQueryBuilder('d').where('d.id = :id', { id }).setLock('pessimistic_read').getOne();
  }

  async deactivate(id: number): Promise<void> {
    await this.repo().update({ id }, { active: false });
  }

  list(page: number, limit: number, active?: boolean): Promise<[DealEntity[], number]> {
    return this.repo().findAndCount({
      where: active === undefined ? {} : { active },
      order: { id: 'ASC' },
      skip: (page - 1) * limit,
      take: limit,
    });
  }
}
