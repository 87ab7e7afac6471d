import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { CrmImportUpload } from '../../../../entities/core/crmImportUpload';
import { newId } from '../../../../entities/base';
import { AppError, tooLarge } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { IMPORT_PART } from '../store/imports';
import { storeUploadPart } from '../store/importUploads';
import { sniffBytes, sniffDelimiter, type SheetEncoding } from './sheet';

export const MAX_SHEET_COLUMNS = 200;
/** Longest row (in characters): an unclosed quote is told at this length rather than buffering the whole file. */
const MAX_ROW_CHARS = 100_000;

const unprocessable = (code: string, detail: string) => new AppError(422, code, detail);

export interface SheetOptions {
  fileName?: string;
  encoding?: SheetEncoding;
  delimiter?: string;
  /** Content-Length when sent. */
  length?: number;
}

/**
 * Reads an uploaded CSV as it arrives (memory stays flat: parts of IMPORT_PART rows are stored as they are read):
 * its encoding from a byte order mark or as given (UTF-8 by default; bytes that are not of that encoding are
 * refused, naming where), its delimiter from the header line unless given, quoted fields, CRLF or LF. A file that
 * is not CSV (XLSX, binary), too large, with too many rows or broken quoting is refused whole: what was stored of
 * it is deleted. The header is line 1; each stored row remembers its line.
 */
export async function uploadSheet(ctx: TenantContext, body: Readable, opts: SheetOptions): Promise<CrmImportUpload> {
  const { CRM_IMPORT_MAX_BYTES: maxBytes, CRM_IMPORT_MAX_ROWS: maxRows } = ctx.services.config;
  if (opts.length !== undefined && opts.length > maxBytes) throw fileTooLarge(maxBytes);
  const id = newId();
  const upload = ctx.em.create(CrmImportUpload, {
    id,
    tenantId: ctx.tenantId,
    createdBy: ctx.userId,
    fileName: opts.fileName ?? null,
    encoding: opts.encoding ?? 'utf-8',
    delimiter: opts.delimiter ?? ',',
    columns: [],
    // -1 while the file is read: an upload cut short is never imported.
    rows: -1,
    bytes: 0,
    importId: null,
  });
  await ctx.em.flush();
  try {
    const read = await readSheet(ctx, id, body, opts, maxBytes, maxRows);
    Object.assign(upload, read);
    await ctx.em.flush();
    return upload;
  } catch (err) {
    body.resume();
    await ctx.em.remove(upload).flush();
    throw err;
  }
}

const fileTooLarge = (max: number) =>
  tooLarge('file_too_large', `The file is larger than ${max} bytes; split it into smaller files`);

async function readSheet(
  ctx: TenantContext,
  uploadId: string,
  body: Readable,
  opts: SheetOptions,
  maxBytes: number,
  maxRows: number,
): Promise<Pick<CrmImportUpload, 'encoding' | 'delimiter' | 'columns' | 'rows' | 'bytes'>> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let bytes = 0;
  const first = await chunks.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const sniffed = sniffBytes(head);
  if ('refused' in sniffed)
    throw unprocessable(
      'not_csv',
      sniffed.refused === 'xlsx'
        ? 'This is a spreadsheet workbook (XLSX, XLS or ODS), not CSV: save it as CSV (UTF-8) and upload that'
        : sniffed.refused === 'empty'
          ? 'The file is empty'
          : 'This is not a text file (it holds NUL bytes): upload a CSV file',
    );
  const encoding: SheetEncoding = sniffed.bom ?? opts.encoding ?? 'utf-8';
  const decoder = new TextDecoder(encoding, { fatal: true });
  const decode = (chunk: Buffer, stream: boolean) => {
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      throw unprocessable(
        'encoding_invalid',
        `The file is not valid ${encoding} (after byte ${bytes}): save it as CSV UTF-8, or name its encoding with ?encoding=windows-1252 (or iso-8859-15, utf-16le)`,
      );
    }
  };
  bytes = head.length;
  const firstText = decode(head.subarray(sniffed.skip), true);
  const delimiter = opts.delimiter ?? sniffDelimiter(firstText);
  async function* text(): AsyncGenerator<string> {
    yield firstText;
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      bytes += next.value.length;
      if (bytes > maxBytes) throw fileTooLarge(maxBytes);
      yield decode(next.value, true);
    }
    yield decode(Buffer.alloc(0), false);
  }
  const parser = parse({
    delimiter,
    relax_column_count: true,
    // A quote inside an unquoted cell (=HYPERLINK("x"), 12" screen) is kept as a character.
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_ROW_CHARS,
    info: true,
  });
  const source = Readable.from(text());
  let failure: unknown = null;
  pipeline(source, parser, (err) => {
    if (err) failure = err;
  });
  let columns: string[] | null = null;
  let rows = 0;
  let part = 0;
  let batch: string[][] = [];
  let lines: number[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await storeUploadPart(ctx.em, uploadId, part++, lines, batch);
    batch = [];
    lines = [];
  };
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const { record, info } = item;
      if (!columns) {
        columns = header(record);
        continue;
      }
      if (record.every((c) => c.trim() === '')) continue;
      if (++rows > maxRows)
        throw tooLarge('too_many_rows', `The file has more than ${maxRows} rows; split it into smaller files`);
      lines.push(info.lines);
      batch.push(record);
      if (batch.length === IMPORT_PART) await flush();
    }
    await flush();
  } catch (err) {
    throw readError(failure ?? err);
  }
  if (failure) throw readError(failure);
  if (!columns) throw unprocessable('not_csv', 'The file has no header line');
  return { encoding, delimiter, columns, rows, bytes };
}

/** The header's names, trimmed; an empty one is named by its position. */
function header(record: string[]): string[] {
  if (record.length > MAX_SHEET_COLUMNS)
    throw unprocessable('csv_invalid', `The header has ${record.length} columns; at most ${MAX_SHEET_COLUMNS}`);
  return record.map((c, i) => c.trim().slice(0, 200) || `column ${i + 1}`);
}

function readError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof CsvError) {
    const line = (err as CsvError & { lines?: number }).lines;
    return unprocessable(
      'csv_invalid',
      `The file is not valid CSV${line ? ` at line ${line}` : ''}: ${err.message.replace(/^Invalid \w+: /, '')}`,
    );
  }
  return err;
}
