import { Controller, Get, HttpStatus, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { DomainError, ErrorKind, invalid, tooLarge } from '../../../common/errors/domain-error.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { AppConfig } from '../../../config/app-config.js';
import { ImportForm, ImportsService, VALIDATES_AT_ONCE } from '../application/imports.service.js';
import { IMPORT_KINDS, IMPORT_MODES, ImportKind, ImportMode } from '../domain/import-file.js';
import { ImportIdParam, ImportListQuery, ImportRequest, ImportResponse } from './imports.dto.js';

const FORM_FIELDS = ['kind', 'mode', 'mapping', 'notify', 'source'];
const SOURCE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The form's text fields, checked as a JSON body would be: one message naming every bad field. */
function formOf(fields: Map<string, string>, sent: Map<string, number>, hasFile: boolean): ImportForm {
  const problems: string[] = [];
  for (const name of fields.keys()) if (!FORM_FIELDS.includes(name)) problems.push(`property ${name} should not exist`);
  // which of two values was meant is not for the service to guess
  for (const [name, times] of sent) if (times > 1 && FORM_FIELDS.includes(name)) problems.push(`${name} must be sent once, not ${times} times`);
  if (!hasFile) problems.push('file should not be empty: send the CSV file in the form field "file"');
  const kind = fields.get('kind');
  if (!IMPORT_KINDS.includes(kind as ImportKind)) problems.push(`kind must be one of ${IMPORT_KINDS.join(', ')}`);
  const mode = fields.get('mode');
  if (!IMPORT_MODES.includes(mode as ImportMode)) problems.push(`mode must be one of ${IMPORT_MODES.join(', ')}`);
  const notify = fields.get('notify') ?? 'false';
  if (notify !== 'true' && notify !== 'false') problems.push('notify must be true or false');
  const source = fields.get('source') ?? 'csv';
  if (!SOURCE.test(source)) problems.push('source must be 1–64 letters, digits, dots, dashes or underscores');
  const mapping = fields.get('mapping');
  if (mapping !== undefined && mapping.length > 10_000) problems.push('mapping must be shorter than or equal to 10000 characters');
  if (problems.length) throw invalid('IMPORT_FORM_INVALID', problems.join('; '));
  return { kind: kind as ImportKind, mode: mode as ImportMode, source, mapping, notify: notify === 'true' };
}

@ApiTags('Imports')
@Controller('finance/imports')
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Endpoint({
    summary: 'Import customers or payments from a CSV file',
    description: [
      'multipart/form-data (any other body: 415): `file`, `kind`, `mode`, optional `mapping`, `notify`, `source`, each sent once (DESIGN part 12).',
      'Columns of `customers`: externalid, fullname, telephone, guarantorname, guarantorcontact, imei, payg, serialnumber (optional), dealid, depositpaid, amountpaid (deposit included), startdate, and optionally status (PENDING, APPROVED, REPOSSESSED), salesstage, dealstatus (only REPOSSESSED is taken from it; PAID_OFF, or any other, must agree with amountpaid against the deal’s total), bonusdays (0 to BONUS_DAYS_MAX), language (en, sw) and smsoptout (true, false: no reminders), and totalamount and monthly (checked against the deal’s terms, never taken: another book’s dealid may name another deal here), as an export writes them. A migrated deal keeps its startdate and bonus days (one grant, route import); what was paid beyond the deposit is one OPENING ledger row; the credit policy sets its state as of today, but a repossessed deal stays REPOSSESSED; a SYNC (RELEASE when paid off, PERMANENT_LOCK when repossessed) is queued for each device.',
      'Columns of `payments`: externalid, payg or customerid, amount, reference (an operator receipt: MANUAL payments, one namespace with payments/load), narration (optional), date (validated, not in the future; the payment is recorded when the import applies).',
      'Every cell is checked by the same rules as the API (telephone, IMEI, PAYG code, amounts, dates, duplicates in the file and in the book). `validate` answers 200 with the errors (all counted in errorcount, the first 1,000 by row listed) and writes nothing to the book. `apply` answers 202 with the record and works in the background (poll `GET /finance/imports/{importid}`): any error → FAILED, nothing written; otherwise all rows in one transaction → DONE. The same apply again (same file, kind, source and mapping) answers 200 with the earlier record, unless that one FAILED (nothing written): then it is tried again as a new import. A row whose externalid this source brought in before is skipped.',
      'A file that is not UTF-8 text, or whose header lacks a column or has two for one field (`amount` and `Amount`, or a column mapped to amount beside one named so): 400, in either mode, nothing stored; a file over IMPORT_MAX_MB: 413.',
      `At most ${VALIDATES_AT_ONCE} validates run at once in each instance of the service (each holds a database connection while it checks its file): another one meanwhile → 429, nothing stored.`,
    ].join('\n\n'),
    roles: [],
    response: ImportResponse,
    responseDescription: 'A validate’s answer, or the earlier import of the same file.',
    errors: [413, 415, 429],
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ImportRequest })
  @ApiResponse({ status: HttpStatus.ACCEPTED, description: 'Apply accepted: the import record (VALIDATING); it goes on in the background.', type: ImportResponse })
  async submit(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @CurrentUser() user: AuthUser): Promise<ImportResponse> {
    const { file, fields, sent } = await this.readForm(request);
    const form = formOf(fields, sent, file !== undefined);
    const { view, accepted } = await this.imports.submit(file!, form, user);
    void reply.status(accepted ? HttpStatus.ACCEPTED : HttpStatus.OK);
    return view;
  }

  @Get()
  @Endpoint({ summary: 'List imports', description: 'Newest first, with status, counts and progress (errors are in each record).', roles: [], response: PageOf(ImportResponse) })
  list(@Query() query: ImportListQuery): Promise<Page<ImportResponse>> {
    return this.imports.list(query.page, query.limit);
  }

  @Get(':importid')
  @Endpoint({ summary: 'One import: status, counts, progress and errors', roles: [], response: ImportResponse, errors: [404] })
  get(@Param() params: ImportIdParam): Promise<ImportResponse> {
    return this.imports.get(params.importid);
  }

  /** Reads the parts as they stream in; the file is held in memory up to IMPORT_MAX_MB (the cap is enforced while reading). */
  private async readForm(request: FastifyRequest): Promise<{ file?: { content: Buffer; filename: string }; fields: Map<string, string>; sent: Map<string, number> }> {
    const fields = new Map<string, string>();
    /** how many times each field came */
    const sent = new Map<string, number>();
    let file: { content: Buffer; filename: string } | undefined;
    const maxMb = this.config.importMaxMb;
    try {
      for await (const part of request.parts({ limits: { fileSize: maxMb * 1024 * 1024, files: 1, fields: 10, fieldSize: 100_000, parts: 11 } })) {
        sent.set(part.fieldname, (sent.get(part.fieldname) ?? 0) + 1);
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.fieldname !== 'file') fields.set(part.fieldname, '');
          else file = { content, filename: part.filename ?? '' };
        } else fields.set(part.fieldname, String(part.value));
      }
    } catch (error) {
      throw multipartError(error, maxMb);
    }
    return { file, fields, sent };
  }
}

/**
 * What busboy (under @fastify/multipart) throws for a body that is not well-formed multipart: plain
 * errors without a code, told apart by their text. Anything else reading the form throws stays
 * what it is (a 500 if it is ours).
 */
const MALFORMED_MULTIPART: Array<[RegExp, string]> = [
  [/^Multipart: Boundary not found$/, 'its Content-Type names no boundary'],
  [/^The needle cannot have a length bigger than \d+\.$/, 'its boundary is too long (RFC 2046 allows 70 characters)'],
  [/^((Part|Preamble) terminated early due to u|U)nexpected end of multipart data$/, 'it ends before its closing boundary'],
];

/** @fastify/multipart's errors in this service's words. */
function multipartError(error: unknown, maxMb: number): unknown {
  const malformed = MALFORMED_MULTIPART.find(([text]) => error instanceof Error && text.test(error.message));
  if (malformed) return invalid('IMPORT_MULTIPART_MALFORMED', `The upload is not a well-formed multipart/form-data body: ${malformed[1]}.`);
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge('IMPORT_FILE_TOO_LARGE', `The file is larger than the ${maxMb} MB limit (IMPORT_MAX_MB).`);
    case 'FST_FILES_LIMIT':
      return invalid('IMPORT_FORM_INVALID', 'Send one file, in the form field "file".');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalid('IMPORT_FORM_INVALID', `The form has too many fields: send file, kind, mode and optionally ${FORM_FIELDS.slice(2).join(', ')}.`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new DomainError(ErrorKind.UNSUPPORTED_MEDIA_TYPE, 'IMPORT_NOT_MULTIPART', 'Unsupported Content-Type: send multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
      return invalid('IMPORT_FORM_INVALID', 'A form field may not be named __proto__ or constructor.');
    default:
      return error;
  }
}
