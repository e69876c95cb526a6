import type { DataSource, EntityManager } from 'typeorm';
import { Role } from '../../../common/auth/role.js';
import type { UserEntity } from '../infrastructure/user.entity.js';
import type { UsersRepository } from '../infrastructure/users.repository.js';
import type { PasswordHasher } from './password-hasher.js';
import { UsersService } from './users.service.js';

/**
 * One user in a fake table. A read is taken (its snapshot) when it is asked for and answered when
 * the test says so, as a SELECT that was sent before an UPDATE committed and whose answer is
 * handled after the UPDATE's: the order a busy pool and event loop can give.
 */
function oneUser() {
  const row = { id: 2, username: 'operator1', usernameCanonical: 'operator1', role: Role.OPERATOR, active: true, tokenVersion: 1, createdAt: new Date() } as UserEntity;
  const held: Array<() => void> = [];
  let holdReads = false;
  const read = (): Promise<UserEntity | null> => {
    const snapshot = { ...row };
    if (!holdReads) return Promise.resolve(snapshot);
    return new Promise((resolve) => held.push(() => resolve(snapshot)));
  };
  const repository = {
    findById: read,
    setPasswordHash: async () => void row.tokenVersion++,
    lockActiveAdmins: async () => [1],
    disable: async () => {
      row.active = false;
      row.tokenVersion++;
    },
  } as unknown as UsersRepository;
  const hasher = { hash: async () => '$argon2id$fake' } as unknown as PasswordHasher;
  const dataSource = { transaction: (work: (em: EntityManager) => Promise<unknown>) => work({} as EntityManager) } as unknown as DataSource;
  return {
    service: new UsersService(repository, hasher, dataSource),
    /** Reads from now on wait for answerHeldReads. */
    holdReads: () => (holdReads = true),
    /** Reads from now on are answered at once; those held so far stay held. */
    passReads: () => (holdReads = false),
    answerHeldReads: () => held.splice(0).forEach((answer) => answer()),
  };
}

const admin = { id: 1, username: 'admin', role: Role.ADMIN };

describe('UsersService: the token holder cache', () => {
  it('does not keep a read taken before a password change: the old token ends at once', async () => {
    const u = oneUser();
    u.holdReads();
    const racing = u.service.activeIdentity(2, 1); // a request with the old token, its user read before the change
    u.passReads();
    await u.service.changePassword(2, 'a-brand-new-password');
    u.answerHeldReads(); // …and its answer handled after the change
    await racing;
    expect(await u.service.activeIdentity(2, 1)).toBeNull();
    expect(await u.service.activeIdentity(2, 2)).toMatchObject({ id: 2, role: Role.OPERATOR });
  });

  it('does not keep a read taken before a disable: the user’s token ends at once', async () => {
    const u = oneUser();
    u.holdReads();
    const racing = u.service.activeIdentity(2, 1);
    u.passReads();
    await u.service.disable(2, admin);
    u.answerHeldReads();
    await racing;
    expect(await u.service.activeIdentity(2, 1)).toBeNull();
    expect(await u.service.activeIdentity(2, 2)).toBeNull();
  });

  it('still answers a user from the cache between changes', async () => {
    const u = oneUser();
    expect(await u.service.activeIdentity(2, 1)).toMatchObject({ id: 2 });
    u.holdReads(); // a second request within the cache time does not read again
    expect(await u.service.activeIdentity(2, 1)).toMatchObject({ id: 2 });
  });
});
