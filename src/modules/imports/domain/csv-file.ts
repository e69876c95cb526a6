import { parse } from 'csv-parse/sync';
import { invalid } from '../../../common/errors/domain-error.js';

export interface CsvFile {
  header: string[];
  /** Data records with their row number as a spreadsheet shows it (the header is row 1); blank lines are left out. */
  records: Array<{ row: number; cells: string[] }>;
}

/**
 * Reads an uploaded CSV file (RFC 4180, comma-separated, header row). The file must be UTF-8 (a BOM
 * is allowed): a UTF-16 file is refused as a whole; bytes that are not UTF-8 (a Latin-1 or Windows
 * code page export) become U+FFFD and are reported on the cells that hold them.
 */
export function readCsv(content: Buffer): CsvFile {
  if ((content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff)) {
    throw invalid('IMPORT_ENCODING', 'The file is UTF-16: save it as CSV UTF-8 and upload it again.');
  }
  if (content.includes(0)) throw invalid('IMPORT_ENCODING', 'The file holds NUL bytes: it is not a UTF-8 CSV text file.');
  const text = new TextDecoder('utf-8').decode(content);
  let header: string[] | undefined;
  const records: CsvFile['records'] = [];
  let index = 0;
  try {
    // one pass, each record kept once with its row number (no intermediate arrays: a 100,000-row file stays small)
    parse(text, {
      relax_column_count: true,
      skip_empty_lines: false,
      on_record: (cells: string[]) => {
        const row = ++index;
        if (header === undefined) header = cells;
        else if (cells.some((c) => c.trim() !== '')) records.push({ row, cells });
        return null;
      },
    });
  } catch (error) {
    throw invalid('IMPORT_NOT_CSV', `The file is not valid CSV: ${(error as Error).message}`);
  }
  if (header === undefined || header.every((h) => h.trim() === '')) throw invalid('IMPORT_EMPTY', 'The file is empty: it needs a header row naming its columns.');
  return { header, records };
}
