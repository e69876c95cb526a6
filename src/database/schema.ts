import { DealEntity } from '../modules/deals/infrastructure/deal.entity.js';
import { InventoryItemEntity } from '../modules/inventory/infrastructure/inventory-item.entity.js';
import { InventoryMovementEntity } from '../modules/inventory/infrastructure/inventory-movement.entity.js';
import { FeedbackEntity } from '../modules/feedback/infrastructure/feedback.entity.js';
import { UserEntity } from '../modules/users/infrastructure/user.entity.js';
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
import { ListingIndexes1765670400000 } from './migrations/1765670400000-ListingIndexes.js';
import { TelephoneSuffixSearch1765756800000 } from './migrations/1765756800000-TelephoneSuffixSearch.js';
import { NameSearchWithoutPendingList1765843200000 } from './migrations/1765843200000-NameSearchWithoutPendingList.js';
import { ImportFilesUncompressed1765929600000 } from './migrations/1765929600000-ImportFilesUncompressed.js';
import { DropUnreadIndexes1766016000000 } from './migrations/1766016000000-DropUnreadIndexes.js';
import { NameIndexSmallPendingList1766102400000 } from './migrations/1766102400000-NameIndexSmallPendingList.js';
import { DropPrefixNameIndex1766188800000 } from './migrations/1766188800000-DropPrefixNameIndex.js';
import { TrimmedTransactionIds1766275200000 } from './migrations/1766275200000-TrimmedTransactionIds.js';
import { CommandsInOrderPerDevice1766361600000 } from './migrations/1766361600000-CommandsInOrderPerDevice.js';
import { RetryFailedImports1766448000000 } from './migrations/1766448000000-RetryFailedImports.js';
import { SmsLeaseToken1766534400000 } from './migrations/1766534400000-SmsLeaseToken.js';
import { NamesInNfc1766620800000 } from './migrations/1766620800000-NamesInNfc.js';
import { DealsByDevice1766707200000 } from './migrations/1766707200000-DealsByDevice.js';
import { SignedOutTokens1766793600000 } from './migrations/1766793600000-SignedOutTokens.js';
import { DealsOpenedRepossessed1766880000000 } from './migrations/1766880000000-DealsOpenedRepossessed.js';
import { DealUnlockUntil1767225600000 } from './migrations/1767225600000-DealUnlockUntil.js';

/**
 * Every entity and every migration, listed explicitly: ES modules have no reliable file globbing
 * at run time under both node and jest, and a list makes the schema's history reviewable.
 * A new migration goes at the end of MIGRATIONS.
 */
export const ENTITIES = [UserEntity, DealEntity, InventoryItemEntity, InventoryMovementEntity, FeedbackEntity];

export const MIGRATIONS = [Foundation1764460800000, CustomersDealsLedger1764547200000, MobileMoney1764633600000, DeviceCommands1764720000000, InventoryCollectionsFeedback1764806400000,
  PaymentSources1764892800000,
  NormalisedIdentifiers1764979200000,
  AccountsHardening1765065600000,
  CollectionCallsRepossessed1765152000000,
  SearchIndexes1765238400000,
  CustomerMessages1765324800000,
  Imports1765411200000,
  ReceiptFacts1765584000000,
  ListingIndexes1765670400000,
  TelephoneSuffixSearch1765756800000,
  NameSearchWithoutPendingList1765843200000,
  ImportFilesUncompressed1765929600000,
  DropUnreadIndexes1766016000000,
  NameIndexSmallPendingList1766102400000,
  DropPrefixNameIndex1766188800000,
  TrimmedTransactionIds1766275200000,
  CommandsInOrderPerDevice1766361600000,
  RetryFailedImports1766448000000,
  SmsLeaseToken1766534400000,
  NamesInNfc1766620800000,
  DealsByDevice1766707200000,
  SignedOutTokens1766793600000,
  DealsOpenedRepossessed1766880000000,
  DealUnlockUntil1767225600000,
];
