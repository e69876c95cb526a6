import { parse } from 'csv-parse';
import { pipeline, Readable } from 'node:stream';
import { DomainError, invalid } from '../../../common/errors/domain-error.js';

export interface CsvFile {
  header: string[];
  /** How many data records (blank lines left out). */
  records: number;
}

/** Takes each data record with its row number as a spreadsheet shows it (the header is row 1, unless blank rows come before it). */
export type RecordReader = (row: number, cells: string[]) => void | Promise<void>;

/** A file's bytes in slices, in order: the upload itself (one slice) or the stored copy read a slice at a time. */
export type FileBytes = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Reads an uploaded CSV file (RFC 4180, comma-separated, header row). The file must be UTF-8 (a BOM
 * is allowed): a UTF-16 file is refused as a whole; bytes that are not UTF-8 (a Latin-1 or Windows
 * code page export) become U+FFFD and are reported on the cells that hold them.
 *
 * The bytes are decoded and parsed as they come, and records are handed one at a time to the
 * reader made from the header, which may wait (write a chunk) before the next is parsed; none is
 * kept, so a 100,000-row file is held neither as text nor as cells. `readCsv(bytes)` alone checks
 * the file and counts its records.
 *
 * Blank rows (nothing but separators and spaces) are left out: before the header (a spreadsheet's
 * export may start with one) as well as between records. They still count in the row numbers, so
 * that a row number is the line a spreadsheet shows.
 */
export async function readCsv(bytes: FileBytes, readerFor?: (header: string[]) => RecordReader): Promise<CsvFile> {
  const parser = parse({ relax_column_count: true, skip_empty_lines: false });
  pipeline(Readable.from(decodeUtf8(bytes)), parser, () => undefined);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let header: string[] | undefined;
  let reader: RecordReader | undefined;
  let records = 0;
  let row = 0;
  try {
    for (;;) {
      let next: IteratorResult<string[]>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw invalid('IMPORT_NOT_CSV', `The file is not valid CSV: ${(error as Error).message}`);
      }
      if (next.done) break;
      const cells = next.value;
      row++;
      if (cells.every((c) => c.trim() === '')) continue;
      if (header === undefined) {
        header = cells;
        reader = readerFor?.(header);
      } else {
        records++;
        await reader?.(row, cells);
      }
    }
  } finally {
    parser.destroy();
  }
  if (header === undefined) throw invalid('IMPORT_EMPTY', 'The file is empty: it needs a header row naming its columns.');
  return { header, records };
}

/** UTF-8 text from byte slices (a character split between two slices is joined); UTF-16 and NUL bytes refused. */
async function* decodeUtf8(bytes: FileBytes): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const slice of bytes) {
    if (slice.length === 0) continue;
    if (first && ((slice[0] === 0xff && slice[1] === 0xfe) || (slice[0] === 0xfe && slice[1] === 0xff))) {
      throw invalid('IMPORT_ENCODING', 'The file is UTF-16: save it as CSV UTF-8 and upload it again.');
    }
    first = false;
    if (slice.includes(0)) throw invalid('IMPORT_ENCODING', 'The file holds NUL bytes: it is not a UTF-8 CSV text file.');
    const text = decoder.decode(slice, { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
