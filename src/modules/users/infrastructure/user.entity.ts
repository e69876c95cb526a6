import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Role } from '../../../common/auth/role.js';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** As first written; shown in responses. */
  @Column({ type: 'varchar', length: 255 })
  username: string;

  /**
   * The compared form (canonicalUsername: NFKC, then lower case), unique. NULL only for a user the
   * canonical-username migration disabled because an older user has the same name once canonical.
   */
  @Column({ name: 'username_canonical', type: 'text', nullable: true })
  usernameCanonical: string | null;

  /** argon2id hash (or a bcrypt hash from before, replaced at the next sign-in); null for a customer's identity. Never leaves the service. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true, select: false })
  passwordHash: string | null;

  /** Carried in tokens as `ver`; raised on a password change or a disable, which ends every older token. */
  @Column({ name: 'token_version', type: 'integer', default: 1 })
  tokenVersion: number;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
