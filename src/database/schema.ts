import { AuditLogEntity } from '../common/audit/audit-log.entity.js';
import { UserEntity } from '../modules/users/infrastructure/user.entity.js';
import { Foundation1764460800000 } from './migrations/1764460800000-Foundation.js';

/**
 * Every entity and every migration, listed explicitly: ES modules have no reliable file globbing
 * at run time under both node and jest, and a list makes the schema's history reviewable.
 * A new migration goes at the end of MIGRATIONS.
 */
export const ENTITIES = [UserEntity, AuditLogEntity];

export const MIGRATIONS = [Foundation1764460800000];
