import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../../../common/http/pagination.js';
import { ERRORS_LISTED_MAX, IMPORT_KINDS, IMPORT_MODES, ImportStatus } from '../domain/import-file.js';
import type { ImportKind, ImportMode } from '../domain/import-file.js';
import type { ImportView } from '../application/imports.service.js';
import { QueryIdField } from '../../../common/validation/fields.js';

/** The multipart/form-data body of POST /finance/imports (documented; read by the controller from the parts). */
export class ImportRequest {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The CSV file: UTF-8, comma-separated, header row first (RFC 4180). At most IMPORT_MAX_MB MB.' })
  file: unknown;

  @ApiProperty({ enum: IMPORT_KINDS, description: '`customers`: an existing book (customers with their deal, start date and what they paid so far); `payments`: payments to apply.' })
  kind: string;

  @ApiProperty({ enum: IMPORT_MODES, description: '`validate` checks every row and writes nothing; `apply` writes all rows or none.' })
  mode: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 10000, example: '{"Client ID":"externalid","Phone":"telephone"}', description: 'JSON object: a header of this file → a field name (part 4a); headers are found as field names are, spaces around them and letter case aside (one header named twice is a 400). Headers not mapped are read by their own name; other columns are ignored.' })
  mapping?: string;

  @ApiPropertyOptional({ type: 'string', enum: ['true', 'false'], default: 'false', description: 'Tell the customers (DESIGN part 12: imports send no messages otherwise). customers: each migrated customer gets the REGISTERED message (off by default: they are not new customers). payments: each payment gets its PAYMENT_RECEIVED receipt, and one that pays a deal off its PAID_OFF message (off by default: they were made on another platform, often weeks ago).' })
  notify?: string;

  @ApiPropertyOptional({ type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', default: 'csv', description: 'Where the file comes from (e.g. the other platform’s name): `externalid` is unique per source and kind.' })
  source?: string;
}

const LISTED = ERRORS_LISTED_MAX.toLocaleString('en');

export class ImportRowError {
  @ApiProperty({ type: 'integer', example: 3, description: 'Row of the file as a spreadsheet shows it (the header is row 1, unless blank rows come before it).' }) row: number;
  @ApiProperty({ example: 'telephone' }) field: string;
  @ApiProperty({ example: 'telephone must be a valid telephone number: with its country code (+256772555001) or as dialled in UG' }) message: string;
}

export class ImportResponse implements ImportView {
  @ApiProperty({ type: 'integer', example: 7 }) importid: number;
  @ApiProperty({ enum: IMPORT_KINDS }) kind: ImportKind;
  @ApiProperty({ enum: IMPORT_MODES }) mode: ImportMode;
  @ApiProperty({ example: 'csv' }) source: string;
  @ApiProperty({ enum: ImportStatus, description: 'VALIDATING → APPLYING → DONE, or FAILED (nothing written). A validate is DONE at once.' }) status: ImportStatus;
  @ApiProperty({ example: 'book.csv' }) filename: string;
  @ApiProperty({ example: false }) notify: boolean;
  @ApiProperty({ type: 'integer', example: 1200, description: 'Data rows in the file (blank lines left out).' }) rows: number;
  @ApiProperty({ type: 'integer', example: 1198, description: 'Rows without any error.' }) valid: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Rows written to the book.' }) applied: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Rows whose externalid this source brought in before: left as they are.' }) skipped: number;
  @ApiProperty({ type: 'integer', example: 600, description: 'Rows done so far by the running step: from 0, the rows checked while VALIDATING, then the rows applied while APPLYING; all of them once finished.' }) processed: number;
  @ApiProperty({ type: 'integer', example: 50, description: 'processed ÷ rows, in percent.' }) progress: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Every bad cell found, however many.' }) errorcount: number;
  @ApiProperty({ example: false, description: `true when errorcount is over ${LISTED}: \`errors\` then lists only the first ${LISTED}, by row.` }) errorstruncated: boolean;
  @ApiProperty({ type: [ImportRowError], description: `The bad cells by row, at most the first ${LISTED} (see errorstruncated); empty in listings.` }) errors: ImportRowError[];
  @ApiProperty({ type: String, nullable: true, example: null }) message: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:12:00.000Z' }) createdat: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true, example: null }) finishedat: string | null;
}

export class ImportListQuery extends PageQuery {}

export class ImportIdParam {
  @QueryIdField({ example: 7 })
  importid: number;
}
