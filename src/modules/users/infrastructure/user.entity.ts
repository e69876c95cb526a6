import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Role } from '../../../common/auth/role.js';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Unique, compared case-insensitively (unique index on lower(username)). */
  @Column({ type: 'varchar', length: 255 })
  username: string;

  /** bcrypt hash; null for a customer's identity, which cannot sign in. Never leaves the service. */
  @Column({ name: 'password_hash', type: 'varchar', length: 100, nullable: true, select: false })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
