import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Role } from '../../../common/auth/role.js';
import { UserEntity } from './user.entity.js';

export interface UserWithHash {
  id: number;
  username: string;
  role: Role;
  active: boolean;
  passwordHash: string | null;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(em?: EntityManager) {
    return (em ?? this.dataSource.manager).getRepository(UserEntity);
  }

  findById(id: number, em?: EntityManager): Promise<UserEntity | null> {
    return this.repo(em).findOne({ where: { id } });
  }

  findByUsernameWithHash(username: string): Promise<UserWithHash | null> {
    return this.repo()
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.username) = lower(:username)', { username })
      .getOne();
  }

  usernameTaken(username: string, em?: EntityManager): Promise<boolean> {
    return this.repo(em)
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username)', { username })
      .getExists();
  }

  /** Inserts the user; a duplicate username surfaces as a unique violation (23505) for the caller to map. */
  async insert(user: { username: string; passwordHash: string | null; role: Role }, em?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(em);
    return repo.save(repo.create({ ...user, active: true }));
  }

  /** Creates the first administrator only while the table is empty; true when this call created it. */
  async insertFirstAdmin(username: string, passwordHash: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO users (username, password_hash, role, active)
       SELECT $1, $2, 'ADMIN', true WHERE NOT EXISTS (SELECT 1 FROM users WHERE role <> 'CUSTOMER')
       ON CONFLICT ((lower(username))) DO NOTHING RETURNING id`,
      [username, passwordHash],
    );
    return rows.length === 1;
  }

  async list(page: number, limit: number): Promise<[UserEntity[], number]> {
    return this.repo().findAndCount({ order: { id: 'ASC' }, skip: (page - 1) * limit, take: limit });
  }

  async setActive(id: number, active: boolean): Promise<void> {
    await this.repo().update({ id }, { active });
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.repo().update({ id }, { passwordHash });
  }
}
