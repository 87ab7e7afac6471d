import { AppError, badRequest } from '../../../lib/errors';

/** Where the drive is served over WebDAV: `/dav/files/` is the organisation's root folder. */
export const DAV_PREFIX = '/dav/files';

/** A path of the drive: its names from the root (empty: the root itself). */
export type DavPath = string[];

const pathInvalid = (detail: string) => badRequest('path_invalid', detail);

/**
 * The names of a request path under DAV_PREFIX, each percent-decoded once. A segment that decodes to "." or
 * "..", holds a separator ("/", "\\") or a control character, or is not valid percent-encoding is 400
 * `path_invalid`: nothing of a path can climb out of the drive. Empty segments (a trailing slash) are ignored.
 */
export function parseDavPath(rawPath: string): DavPath {
  if (rawPath !== DAV_PREFIX && !rawPath.startsWith(`${DAV_PREFIX}/`))
    throw pathInvalid(`WebDAV paths start with ${DAV_PREFIX}/`);
  const names: string[] = [];
  for (const segment of rawPath.slice(DAV_PREFIX.length).split('/')) {
    if (segment === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      throw pathInvalid(`"${segment}" is not valid percent-encoding`);
    }
    // eslint-disable-next-line no-control-regex
    if (name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name))
      throw pathInvalid('A path segment may not be "." or "..", nor contain a separator or a control character');
    names.push(name.normalize('NFC'));
  }
  return names;
}

/**
 * The Destination header of COPY and MOVE (RFC 4918 10.3): an absolute URI of this server (502
 * `destination_other_server` for another host) or an absolute path, under DAV_PREFIX (403
 * `destination_outside` otherwise: `..` cannot take it out of the drive, as URL resolution removes dot segments
 * before the check and encoded ones are refused by parseDavPath).
 */
export function parseDestination(header: string | undefined, requestHost: string | undefined): DavPath {
  if (!header) throw badRequest('destination_missing', 'COPY and MOVE need a Destination header');
  let url: URL;
  try {
    url = new URL(header, `http://${requestHost ?? 'localhost'}`);
  } catch {
    throw badRequest('destination_invalid', 'The Destination header is not a URI');
  }
  if (requestHost && url.host.toLowerCase() !== requestHost.toLowerCase())
    throw new AppError(502, 'destination_other_server', 'The Destination names another server');
  if (url.pathname !== DAV_PREFIX && !url.pathname.startsWith(`${DAV_PREFIX}/`))
    throw new AppError(403, 'destination_outside', `The Destination must be under ${DAV_PREFIX}/`);
  return parseDavPath(url.pathname);
}

/** The key a path is compared by (names are unique case-insensitively within a folder). */
export const pathKey = (path: DavPath) => `/${path.map((n) => n.toLowerCase()).join('/')}`;

/** Whether `inner` is `outer` or inside it. */
export const isWithin = (inner: DavPath, outer: DavPath) =>
  inner.length >= outer.length && pathKey(inner.slice(0, outer.length)) === pathKey(outer);

/** The href of a path: each name percent-encoded, a trailing slash for collections. */
export const hrefOf = (path: DavPath, collection: boolean) =>
  `${DAV_PREFIX}/${path.map((n) => encodeURIComponent(n)).join('/')}${collection && path.length ? '/' : ''}`;

/** Depth of PROPFIND, COPY, LOCK (RFC 4918 10.2): 0, 1 or infinity; anything else is 400 `depth_invalid`. */
export function parseDepth(header: string | undefined, fallback: '0' | '1' | 'infinity'): '0' | '1' | 'infinity' {
  if (header === undefined) return fallback;
  const value = header.trim().toLowerCase();
  if (value === '0' || value === '1' || value === 'infinity') return value;
  throw badRequest('depth_invalid', 'Depth must be 0, 1 or infinity');
}

/** Overwrite (RFC 4918 10.6): T (default) or F. */
export function parseOverwrite(header: string | undefined): boolean {
  if (header === undefined) return true;
  const value = header.trim().toUpperCase();
  if (value === 'T' || value === 'F') return value === 'T';
  throw badRequest('overwrite_invalid', 'Overwrite must be T or F');
}

/** Timeout of LOCK (RFC 4918 10.7): the first `Second-n` or `Infinite`, bounded by `max` seconds. */
export function parseTimeout(header: string | undefined, fallback: number, max: number): number {
  if (!header) return fallback;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return max;
    const seconds = /^second-(\d{1,10})$/i.exec(value)?.[1];
    if (seconds !== undefined) return Math.max(1, Math.min(Number(seconds), max));
  }
  return fallback;
}

/** A single byte range of a Range header, resolved against the size; null: send everything; 'unsatisfiable': 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole representation (RFC 9110 14.2 lets a server ignore Range).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
