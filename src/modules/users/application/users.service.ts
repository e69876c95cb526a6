import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AuthUser, Role } from '../../../common/auth/role.js';
import { isUniqueViolation } from '../../../common/database/postgres-errors.js';
import { Page, PageQuery } from '../../../common/http/pagination.js';
import { cannotDisableSelf, userIsCustomer, userNotFound, usernameTaken } from '../domain/user-errors.js';
import { UserEntity } from '../infrastructure/user.entity.js';
import { UsersRepository } from '../infrastructure/users.repository.js';
import { PasswordHasher } from './password-hasher.js';

export interface UserView {
  id: number;
  username: string;
  role: Role;
  active: boolean;
  createdat: string;
}

/** How long a token holder's "still active" answer is reused on this instance (disabling here clears it at once). */
const ACTIVE_CACHE_MS = 5_000;

@Injectable()
export class UsersService {
  private readonly activeCache = new Map<number, { user: AuthUser | null; until: number }>();

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  static view(user: UserEntity): UserView {
    return { id: user.id, username: user.username, role: user.role, active: user.active, createdat: user.createdAt.toISOString() };
  }

  async create(input: { username: string; password: string; role: Role }): Promise<UserView> {
    if (await this.users.usernameTaken(input.username)) throw usernameTaken(input.username);
    const passwordHash = await this.hasher.hash(input.password);
    try {
      return UsersService.view(await this.users.insert({ username: input.username, passwordHash, role: input.role }));
    } catch (error) {
      if (isUniqueViolation(error)) throw usernameTaken(input.username);
      throw error;
    }
  }

  /** The identity made for a customer at registration: username = telephone, no password, cannot sign in. */
  async createCustomerIdentity(telephone: string, em: EntityManager): Promise<number> {
    const user = await this.users.insert({ username: telephone, passwordHash: null, role: Role.CUSTOMER }, em);
    return user.id;
  }

  async list(query: PageQuery): Promise<Page<UserView>> {
    const [rows, total] = await this.users.list(query.page, query.limit);
    return { items: rows.map(UsersService.view), total, page: query.page, limit: query.limit };
  }

  async disable(id: number, actor: AuthUser): Promise<UserView> {
    if (id === actor.id) throw cannotDisableSelf();
    const user = await this.users.findById(id);
    if (!user) throw userNotFound(id);
    await this.users.setActive(id, false);
    this.activeCache.delete(id);
    return UsersService.view({ ...user, active: false });
  }

  async changePassword(id: number, password: string): Promise<{ message: string }> {
    const user = await this.users.findById(id);
    if (!user) throw userNotFound(id);
    if (user.role === Role.CUSTOMER) throw userIsCustomer(id);
    await this.users.setPasswordHash(id, await this.hasher.hash(password));
    return { message: 'Password changed.' };
  }

  /** A user as stored now (no cache): for decisions such as whom a call may be assigned to. */
  async find(id: number): Promise<UserView | null> {
    const user = await this.users.findById(id);
    return user ? UsersService.view(user) : null;
  }

  /** The user behind a valid token, or null when they no longer exist or are disabled. */
  async activeIdentity(id: number): Promise<AuthUser | null> {
    const now = Date.now();
    const cached = this.activeCache.get(id);
    if (cached && cached.until > now) return cached.user;
    const user = await this.users.findById(id);
    const identity = user && user.active && user.role !== Role.CUSTOMER ? { id: user.id, username: user.username, role: user.role } : null;
    if (this.activeCache.size > 10_000) this.activeCache.clear();
    this.activeCache.set(id, { user: identity, until: now + ACTIVE_CACHE_MS });
    return identity;
  }

  /** Checks a sign-in; null for an unknown user, a wrong password, a disabled user or a customer identity. */
  async verifyCredentials(username: string, password: string): Promise<AuthUser | null> {
    const user = await this.users.findByUsernameWithHash(username);
    const ok = await this.hasher.verify(password, user?.passwordHash ?? null);
    if (!user || !ok || !user.active || user.role === Role.CUSTOMER) return null;
    return { id: user.id, username: user.username, role: user.role };
  }

  /**
   * First administrator, when no staff user exists yet. Returns the generated password when one had
   * to be made up, so the caller can print it once.
   */
  async ensureFirstAdmin(username = 'admin', password?: string): Promise<{ created: boolean; generatedPassword?: string }> {
    const generated = password ? undefined : randomBytes(12).toString('base64url');
    const created = await this.users.insertFirstAdmin(username, await this.hasher.hash(password ?? generated!));
    return { created, generatedPassword: created ? generated : undefined };
  }
}
