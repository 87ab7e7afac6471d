import { extname } from 'node:path';
import { invalidField } from '../../lib/errors';
import { NAME_LENGTH, type FileCategory } from '../../entities/cloud/node';

/** The id standing for "the root" in the name index (parent_id null). */
export const ROOT_ID = '00000000-0000-0000-0000-000000000000';

/** Whether text is a uuid: checked before PostgreSQL casts text from outside (a cursor, an object key) to one. */
export const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

export const MAX_NAME_LENGTH = NAME_LENGTH;

/**
 * A name as stored: Unicode NFC, separators (/ and \) and control characters replaced by "_", whitespace
 * runs collapsed, no leading or trailing spaces or trailing dots. "", "." and ".." are refused. Names are
 * labels only: object keys never derive from them, so no name can reach another path.
 */
export function sanitizeName(raw: string, field = 'name'): string {
  const name = raw
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[. ]+$/, '');
  if (!name || name === '.' || name === '..')
    throw invalidField(field, 'must contain a visible character and not be "." or ".."');
  if (name.length > MAX_NAME_LENGTH) throw invalidField(field, `must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

/** Room a " (n)" suffix takes up to n = 999,999,999: far more names than one folder holds. */
const SUFFIX_ROOM = ' (999999999)'.length;

/**
 * A name as stem and extension ("report.pdf": "report", ".pdf"). An extension too long to leave room for a
 * suffix and a character of stem counts as stem, so a numbered name always fits in MAX_NAME_LENGTH.
 */
function splitName(name: string, isFile: boolean): [stem: string, ext: string] {
  const ext = isFile ? extname(name) : '';
  return ext.length > MAX_NAME_LENGTH - SUFFIX_ROOM - 1 ? [name, ''] : [name.slice(0, name.length - ext.length), ext];
}

/** "report.pdf" -> "report (2).pdf"; "Photos" -> "Photos (2)"; n counts from 2. The stem is cut to fit 255 characters. */
export function numbered(name: string, n: number, isFile: boolean): string {
  const [stem, ext] = splitName(name, isFile);
  const suffix = ` (${n})`;
  return `${stem.slice(0, MAX_NAME_LENGTH - suffix.length - ext.length)}${suffix}${ext}`;
}

/** The media type without parameters, lower case: "Text/Plain; charset=utf-8" -> "text/plain". */
export const mediaType = (contentType: string | null | undefined) =>
  (contentType ?? '').split(';')[0].trim().toLowerCase();

const byExtension: Record<string, FileCategory> = {
  doc: 'document',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  pages: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  csv: 'spreadsheet',
  numbers: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  key: 'presentation',
  zip: 'archive',
  tar: 'archive',
  gz: 'archive',
  tgz: 'archive',
  '7z': 'archive',
  rar: 'archive',
  bz2: 'archive',
  xz: 'archive',
  txt: 'text',
  md: 'text',
  json: 'text',
  xml: 'text',
  html: 'text',
  log: 'text',
  yaml: 'text',
  yml: 'text',
  pdf: 'pdf',
};

/** What kind of file this is, from its media type first, then its extension. */
export function categoryOf(contentType: string, name: string): FileCategory {
  const type = mediaType(contentType);
  const [major] = type.split('/');
  if (major === 'image' || major === 'video' || major === 'audio') return major;
  if (type === 'application/pdf') return 'pdf';
  if (type.includes('wordprocessingml') || type.includes('opendocument.text') || type === 'application/msword')
    return 'document';
  if (
    type.includes('spreadsheetml') ||
    type.includes('opendocument.spreadsheet') ||
    type === 'application/vnd.ms-excel' ||
    type === 'text/csv'
  )
    return 'spreadsheet';
  if (
    type.includes('presentationml') ||
    type.includes('opendocument.presentation') ||
    type === 'application/vnd.ms-powerpoint'
  )
    return 'presentation';
  if (/zip|x-tar|gzip|x-7z|x-rar|x-bzip/.test(type)) return 'archive';
  if (major === 'text') return 'text';
  return byExtension[extname(name).slice(1).toLowerCase()] ?? 'other';
}
