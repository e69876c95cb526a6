import { AuditLogEntity } from '../common/audit/audit-log.entity.js';
import { AccountEntity } from '../modules/accounts/infrastructure/account.entity.js';
import { PaymentEntity } from '../modules/accounts/infrastructure/payment.entity.js';
import { CustomerDealEntity } from '../modules/contracts/infrastructure/customer-deal.entity.js';
import { CustomerEntity } from '../modules/customers/infrastructure/customer.entity.js';
import { DealEntity } from '../modules/deals/infrastructure/deal.entity.js';
import { MobileMoneyTransactionEntity } from '../modules/payments/infrastructure/mobile-money-transaction.entity.js';
import { DeviceCommandEntity } from '../modules/device-commands/infrastructure/device-command.entity.js';
import { InventoryItemEntity } from '../modules/inventory/infrastructure/inventory-item.entity.js';
import { InventoryMovementEntity } from '../modules/inventory/infrastructure/inventory-movement.entity.js';
import { CollectionCallEntity } from '../modules/collections/infrastructure/collection-call.entity.js';
import { FeedbackEntity } from '../modules/feedback/infrastructure/feedback.entity.js';
import { UserEntity } from '../modules/users/infrastructure/user.entity.js';
import { CustomerPreferenceEntity, SmsMessageEntity } from '../modules/messages/infrastructure/sms-message.entity.js';
import { Foundation1764460800000 } from './migrations/1764460800000-Foundation.js';
import { CustomersDealsLedger1764547200000 } from './migrations/1764547200000-CustomersDealsLedger.js';
import { MobileMoney1764633600000 } from './migrations/1764633600000-MobileMoney.js';
import { DeviceCommands1764720000000 } from './migrations/1764720000000-DeviceCommands.js';
import { InventoryCollectionsFeedback1764806400000 } from './migrations/1764806400000-InventoryCollectionsFeedback.js';
import { PaymentSources1764892800000 } from './migrations/1764892800000-PaymentSources.js';
import { NormalisedIdentifiers1764979200000 } from './migrations/1764979200000-NormalisedIdentifiers.js';
import { AccountsHardening1765065600000 } from './migrations/1765065600000-AccountsHardening.js';
import { CollectionCallsRepossessed1765152000000 } from './migrations/1765152000000-CollectionCallsRepossessed.js';
import { SearchIndexes1765238400000 } from './migrations/1765238400000-SearchIndexes.js';
import { CustomerMessages1765324800000 } from './migrations/1765324800000-CustomerMessages.js';
import { Imports1765411200000 } from './migrations/1765411200000-Imports.js';
import { ReceiptFacts1765584000000 } from './migrations/1765584000000-ReceiptFacts.js';

/**
 * Every entity and every migration, listed explicitly: ES modules have no reliable file globbing
 * at run time under both node and jest, and a list makes the schema's history reviewable.
 * A new migration goes at the end of MIGRATIONS.
 */
export const ENTITIES = [UserEntity, AuditLogEntity, DealEntity, AccountEntity, PaymentEntity, CustomerEntity, CustomerDealEntity, MobileMoneyTransactionEntity, DeviceCommandEntity,
  InventoryItemEntity, InventoryMovementEntity, CollectionCallEntity, FeedbackEntity, SmsMessageEntity, CustomerPreferenceEntity];

export const MIGRATIONS = [Foundation1764460800000, CustomersDealsLedger1764547200000, MobileMoney1764633600000, DeviceCommands1764720000000, InventoryCollectionsFeedback1764806400000,
  PaymentSources1764892800000,
  NormalisedIdentifiers1764979200000,
  AccountsHardening1765065600000,
  CollectionCallsRepossessed1765152000000,
  SearchIndexes1765238400000,
  CustomerMessages1765324800000,
  Imports1765411200000,
  ReceiptFacts1765584000000];
