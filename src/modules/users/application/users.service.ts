import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser, Role, STAFF_ROLES } from '../../../common/auth/role.js';
import { ReadCache } from '../../../common/cache/read-cache.js';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { isUniqueViolation } from '../../../common/database/postgres-errors.js';
import { Page, PageQuery } from '../../../common/http/pagination.js';
import { wouldLeaveNoAdmin } from '../domain/admin-guard.js';
import { passwordProblem } from '../domain/password-policy.js';
import { cannotDisableSelf, lastActiveAdmin, userIsCustomer, userNotFound, usernameCollides, usernameTaken } from '../domain/user-errors.js';
import { canonicalUsername, staffUsernameProblem, usernameProblem } from '../domain/username.js';
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

/** The user behind a token, with the token version their tokens must carry. */
export interface TokenIdentity extends AuthUser {
  tokenVersion: number;
}

/**
 * How long a token holder's "still active, token version N" answer is reused on this instance.
 * Disabling or a password change here clears it at once; other instances follow within this time.
 */
const ACTIVE_CACHE_MS = 5_000;

@Injectable()
export class UsersService {
  private readonly activeCache = new ReadCache<number, TokenIdentity | null>(ACTIVE_CACHE_MS);

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The compared form of a username (NFKC, then lower case): for other modules, e.g. the sign-in limit's bucket. */
  static canonicalUsername(username: string): string {
    return canonicalUsername(username);
  }

  static view(user: UserEntity): UserView {
    return { id: user.id, username: user.username, role: user.role, active: user.active, createdat: user.createdAt.toISOString() };
  }

  async create(input: { username: string; password: string; role: Role }): Promise<UserView> {
    const usernameCanonical = canonicalUsername(input.username);
    if (await this.users.canonicalTaken(usernameCanonical)) throw usernameTaken(input.username);
    const passwordHash = await this.hasher.hash(input.password);
    try {
      return UsersService.view(await this.users.insert({ username: input.username, usernameCanonical, passwordHash, role: input.role }));
    } catch (error) {
      if (isUniqueViolation(error)) throw usernameTaken(input.username);
      throw error;
    }
  }

  /** The identity made for a customer at registration: username = telephone, no password, cannot sign in. */
  async createCustomerIdentity(telephone: string, em: EntityManager): Promise<number> {
    const [id] = await this.createCustomerIdentities([telephone], em);
    return id;
  }

  /** createCustomerIdentity for many customers at once (an import), ids in the order of `telephones`. */
  createCustomerIdentities(telephones: string[], em: EntityManager): Promise<number[]> {
    return this.users.insertCustomers(telephones.map((t) => ({ username: t, usernameCanonical: canonicalUsername(t) })), em);
  }

  /** Staff users, or the users of one role (customers' identities only when asked for by role). */
  async list(query: PageQuery & { role?: Role }): Promise<Page<UserView>> {
    const [rows, total] = await this.users.list(query.role ? [query.role] : [...STAFF_ROLES], query.page, query.limit);
    return { items: rows.map(UsersService.view), total, page: query.page, limit: query.limit };
  }

  /**
   * Disables a user and ends their tokens. Under a lock on every active administrator, so that the
   * last one cannot be disabled, even by two admins disabling each other at the same moment.
   */
  async disable(id: number, actor: AuthUser): Promise<UserView> {
    if (id === actor.id) throw cannotDisableSelf();
    const user = await this.dataSource.transaction(async (em) => {
      const activeAdmins = await this.users.lockActiveAdmins(em);
      const target = await this.users.findById(id, em);
      if (!target) throw userNotFound(id);
      if (wouldLeaveNoAdmin(target, activeAdmins)) throw lastActiveAdmin(id);
      // The actor may have been disabled a moment ago (on another instance, within the cache time).
      if (!activeAdmins.includes(actor.id)) throw new DomainError(ErrorKind.UNAUTHENTICATED, 'TOKEN_REVOKED', 'Unauthorized!');
      await this.users.disable(id, em);
      return target;
    });
    this.activeCache.forget(id);
    return UsersService.view({ ...user, active: false });
  }

  /** Enables a user again; tokens from before the disable stay ended. */
  async enable(id: number): Promise<UserView> {
    const user = await this.users.findById(id);
    if (!user) throw userNotFound(id);
    if (user.usernameCanonical === null) throw usernameCollides(id);
    if (!user.active) await this.users.enable(id);
    this.activeCache.forget(id);
    return UsersService.view({ ...user, active: true });
  }

  async changePassword(id: number, password: string): Promise<{ message: string }> {
    const user = await this.users.findById(id);
    if (!user) throw userNotFound(id);
    if (user.role === Role.CUSTOMER) throw userIsCustomer(id);
    await this.users.setPasswordHash(id, await this.hasher.hash(password));
    this.activeCache.forget(id);
    return { message: 'Password changed.' };
  }

  /** A user as stored now (no cache): for decisions such as whom a call may be assigned to. */
  async find(id: number): Promise<UserView | null> {
    const user = await this.users.findById(id);
    return user ? UsersService.view(user) : null;
  }

  /** The user behind a valid token, or null when they no longer exist, are disabled or the token's version is not theirs. */
  async activeIdentity(id: number, tokenVersion: number): Promise<AuthUser | null> {
    // a password change or a disable forgets the user here: a read it overtook serves only its own request
    const user = await this.activeCache.get(id, async () => {
      const found = await this.users.findById(id);
      return found && found.active && found.role !== Role.CUSTOMER ? { id: found.id, username: found.username, role: found.role, tokenVersion: found.tokenVersion } : null;
    });
    if (!user || user.tokenVersion !== tokenVersion) return null;
    return { id: user.id, username: user.username, role: user.role };
  }

  /**
   * Checks a sign-in; null for an unknown user, a wrong password, a disabled user or a customer
   * identity, each after one password verification (a decoy hash when there is no user), so the
   * answer takes the same time. A correct password under an older hash is rehashed with argon2id.
   */
  async verifyCredentials(username: string, password: string): Promise<TokenIdentity | null> {
    const user = usernameProblem(username) ? null : await this.users.findByCanonicalWithHash(canonicalUsername(username));
    const check = await this.hasher.verify(password, user?.passwordHash ?? null);
    if (!user || !check.ok || !user.active || user.role === Role.CUSTOMER) return null;
    if (check.needsRehash) await this.users.upgradePasswordHash(user.id, user.passwordHash!, await this.hasher.hash(password));
    return { id: user.id, username: user.username, role: user.role, tokenVersion: user.tokenVersion };
  }

  /**
   * First administrator, when no staff user exists yet. Returns the generated password when one had
   * to be made up, so the caller can print it once.
   */
  async ensureFirstAdmin(username = 'admin', password?: string): Promise<{ created: boolean; generatedPassword?: string }> {
    const badName = staffUsernameProblem(username);
    if (badName) throw new Error(`ADMIN_USERNAME: ${badName}`);
    const badPassword = password === undefined ? undefined : passwordProblem(password, 'ADMIN_PASSWORD');
    if (badPassword) throw new Error(badPassword);
    const generated = password ? undefined : randomBytes(18).toString('base64url');
    const created = await this.users.insertFirstAdmin(username, canonicalUsername(username), await this.hasher.hash(password ?? generated!));
    return { created, generatedPassword: created ? generated : undefined };
  }
}
