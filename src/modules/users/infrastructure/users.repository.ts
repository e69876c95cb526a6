import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Role } from '../../../common/auth/role.js';
import { UserEntity } from './user.entity.js';

export interface UserWithHash {
  id: number;
  username: string;
  role: Role;
  active: boolean;
  tokenVersion: number;
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

  findByCanonicalWithHash(usernameCanonical: string): Promise<UserWithHash | null> {
    return this.repo().createQueryBuilder('u').addSelect('u.passwordHash').where('u.usernameCanonical = :usernameCanonical', { usernameCanonical }).getOne();
  }

  canonicalTaken(usernameCanonical: string, em?: EntityManager): Promise<boolean> {
    return this.repo(em).exists({ where: { usernameCanonical } });
  }

  /** Inserts the user; a duplicate canonical username surfaces as a unique violation (23505) for the caller to map. */
  async insert(user: { username: string; usernameCanonical: string; passwordHash: string | null; role: Role }, em?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(em);
    return repo.save(repo.create({ ...user, active: true }));
  }

  /**
   * Customers' identities (no password), many a statement, in one round trip: the ids in the order
   * of `users`. A canonical username taken already is a unique violation (23505) for the caller to map.
   */
  async insertCustomers(users: Array<{ username: string; usernameCanonical: string }>, em: EntityManager): Promise<number[]> {
    if (users.length === 0) return [];
    const rows = (await em.query(
      `INSERT INTO users (username, username_canonical, password_hash, role, active)
       SELECT u, c, NULL, 'CUSTOMER', true FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(u, c, i) ORDER BY i
       RETURNING id, username_canonical`,
      [users.map((u) => u.username), users.map((u) => u.usernameCanonical)],
    )) as Array<{ id: number; username_canonical: string }>;
    const ids = new Map(rows.map((r) => [r.username_canonical, r.id]));
    return users.map((u) => ids.get(u.usernameCanonical)!);
  }

  /** Creates the first administrator only while no staff user exists; true when this call created it. */
  async insertFirstAdmin(username: string, usernameCanonical: string, passwordHash: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO users (username, username_canonical, password_hash, role, active)
       SELECT $1, $2, $3, 'ADMIN', true WHERE NOT EXISTS (SELECT 1 FROM users WHERE role <> 'CUSTOMER')
       ON CONFLICT (username_canonical) DO NOTHING RETURNING id`,
      [username, usernameCanonical, passwordHash],
    );
    return rows.length === 1;
  }

  async list(roles: Role[], page: number, limit: number): Promise<[UserEntity[], number]> {
    return this.repo().findAndCount({ where: { role: In(roles) }, order: { id: 'ASC' }, skip: (page - 1) * limit, take: limit });
  }

  /**
   * Locks every active administrator's row until the transaction ends and returns their ids. Every
   * disable takes this lock first, so of two admins disabling each other at once the second waits
   * and then sees the first one's change.
   */
  async lockActiveAdmins(em: EntityManager): Promise<number[]> {
    const rows: { id: number }[] = await em.query(`SELECT id FROM users WHERE role = 'ADMIN' AND active ORDER BY id FOR UPDATE`);
    return rows.map((row) => row.id);
  }

  /** Disables the user and ends their tokens. */
  async disable(id: number, em: EntityManager): Promise<void> {
    await em.query(`UPDATE users SET active = false, token_version = token_version + 1, updated_at = now() WHERE id = $1`, [id]);
  }

  async enable(id: number): Promise<void> {
    await this.repo().update({ id }, { active: true });
  }

  /** A new password: ends every token issued before it. */
  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.dataSource.query(`UPDATE users SET password_hash = $2, token_version = token_version + 1, updated_at = now() WHERE id = $1`, [id, passwordHash]);
  }

  /** The same password under a stronger hash (bcrypt → argon2id); a no-op if the password changed meanwhile. Tokens stay valid. */
  async upgradePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<void> {
    await this.dataSource.query(`UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2`, [id, previousHash, passwordHash]);
  }
}
