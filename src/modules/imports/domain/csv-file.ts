import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { invalid } from '../../../common/errors/domain-error.js';

export interface CsvFile {
  header: string[];
  /** How many data records (blank lines left out). */
  records: number;
}

/** Takes each data record with its row number as a spreadsheet shows it (the header is row 1). */
export type RecordReader = (row: number, cells: string[]) => void | Promise<void>;

/**
 * Reads an uploaded CSV file (RFC 4180, comma-separated, header row). The file must be UTF-8 (a BOM
 * is allowed): a UTF-16 file is refused as a whole; bytes that are not UTF-8 (a Latin-1 or Windows
 * code page export) become U+FFFD and are reported on the cells that hold them.
 *
 * Records are parsed as a stream and handed one at a time to the reader made from the header, which
 * may wait (write a chunk) before the next is parsed; none is kept, so a 100,000-row file is never
 * held as cells. `readCsv(content)` alone checks the file and counts its records.
 */
export async function readCsv(content: Buffer, readerFor?: (header: string[]) => RecordReader): Promise<CsvFile> {
  if ((content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff)) {
    throw invalid('IMPORT_ENCODING', 'The file is UTF-16: save it as CSV UTF-8 and upload it again.');
  }
  if (content.includes(0)) throw invalid('IMPORT_ENCODING', 'The file holds NUL bytes: it is not a UTF-8 CSV text file.');
  const parser = Readable.from([new TextDecoder('utf-8').decode(content)]).pipe(parse({ relax_column_count: true, skip_empty_lines: false }));
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let header: string[] | undefined;
  let reader: RecordReader | undefined;
  let records = 0;
  let row = 0;
  for (;;) {
    let next: IteratorResult<string[]>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw invalid('IMPORT_NOT_CSV', `The file is not valid CSV: ${(error as Error).message}`);
    }
    if (next.done) break;
    const cells = next.value;
    row++;
    if (header === undefined) {
      if (cells.every((h) => h.trim() === '')) break;
      header = cells;
      reader = readerFor?.(header);
    } else if (cells.some((c) => c.trim() !== '')) {
      records++;
      await reader?.(row, cells);
    }
  }
  parser.destroy();
  if (header === undefined) throw invalid('IMPORT_EMPTY', 'The file is empty: it needs a header row naming its columns.');
  return { header, records };
}
