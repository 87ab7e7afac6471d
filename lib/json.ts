/**
 * What a client may send as JSON, checked at the edge before anything else walks it:
 *  - nesting at most MAX_JSON_DEPTH objects/arrays deep, checked on the raw bytes before JSON.parse (a
 *    recursive library such as class-transformer overflows its stack a few thousand levels down, and even
 *    an iterative parser spends a second of CPU on 300,000 levels);
 *  - text PostgreSQL can store: no NUL character (text and jsonb refuse it) and no unpaired UTF-16
 *    surrogate (not valid Unicode; some validators even throw on it);
 *  - no key JavaScript gives a meaning to (`__proto__` ...).
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * True when JSON text (UTF-8 bytes) nests objects and arrays deeper than `max`. Brackets inside strings do not
 * count; string contents are skipped with a native search for the closing quote, so the scan costs about
 * what reading the structure costs. Malformed text is left to JSON.parse to refuse.
 */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = closingQuote(bytes, i);
      if (i < 0) return false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing the string opened at `open` (one preceded by an even number of backslashes), or -1. */
function closingQuote(bytes: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** A NUL character, or a surrogate that is not half of a pair (in `u` mode a well-formed pair is one code point, not Cs). */
// eslint-disable-next-line no-control-regex -- NUL is precisely what must be refused
const UNSTORABLE = /[\u0000\p{Cs}]/u;
// eslint-disable-next-line no-control-regex
const UNSTORABLE_ALL = /[\u0000\p{Cs}]/gu;

/** True when PostgreSQL can store the string as text (and inside jsonb). */
const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);

/**
 * Object keys no request may use: JavaScript gives them a meaning. Copying `{"__proto__": {...}}` field by
 * field (as class-transformer does) would set the copy's prototype; in a query string they would vanish
 * silently instead of being refused like any unknown field.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface InputProblem {
  /** `name`, `events[3].type`, `context.objects[0]`. */
  field: string;
  message: string;
}

const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/**
 * What no request may carry, wherever it is in a parsed JSON value (or a query / path parameter object):
 * a string or key PostgreSQL could not store, or a reserved key. The value is expected to be shallow
 * (bodies passed nestsDeeperThan); deeper than twice the limit counts as a problem too. Clean values
 * (nearly all) cost one walk that builds no path.
 */
export function inputProblems(value: unknown): InputProblem[] {
  return hasProblem(value, 0) ? collectProblems(value, '', 0, []) : [];
}

const badKey = (key: string) => RESERVED_KEYS.has(key) || !isStorableText(key);

function hasProblem(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_JSON_DEPTH * 2) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (hasProblem(item, depth + 1)) return true;
    return false;
  }
  for (const key of Object.keys(value))
    if (badKey(key) || hasProblem((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

function collectProblems(value: unknown, path: string, depth: number, found: InputProblem[]): InputProblem[] {
  if (typeof value === 'string') {
    if (!isStorableText(value)) found.push({ field: path, message: UNSTORABLE_MESSAGE });
  } else if (typeof value === 'object' && value !== null) {
    if (depth > MAX_JSON_DEPTH * 2) {
      found.push({ field: path, message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
    } else if (Array.isArray(value)) {
      value.forEach(
        (item, i) => hasProblem(item, depth + 1) && collectProblems(item, `${path}[${i}]`, depth + 1, found),
      );
    } else {
      for (const key of Object.keys(value)) {
        const at = `${path ? `${path}.` : ''}${key.replace(UNSTORABLE_ALL, '\ufffd')}`;
        if (RESERVED_KEYS.has(key)) found.push({ field: at, message: 'is a reserved name' });
        else if (!isStorableText(key)) found.push({ field: at, message: `name ${UNSTORABLE_MESSAGE}` });
        else collectProblems((value as Record<string, unknown>)[key], at, depth + 1, found);
      }
    }
  }
  return found;
}

/** A JSON escape that decodes to text PostgreSQL cannot hold: NUL, or a surrogate (maybe unpaired). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

const storable = (s: string) => s.replace(UNSTORABLE_ALL, (c) => (c === '\u0000' ? '' : '\ufffd'));

/**
 * A verified webhook payload as PostgreSQL can store it: jsonb refuses \u0000 and unpaired surrogates, which
 * JSON may carry as escapes. NUL is dropped from every string and key and an unpaired surrogate becomes U+FFFD,
 * in place. The sender signed what it sent and retries a refused delivery forever, so the delivery is kept,
 * near enough, rather than refused. `text` is the JSON the value was parsed from: without such an escape in it
 * (nearly always) the value is not walked at all.
 */
export function storablePayload<T extends object>(value: T, text: string): T {
  if (!UNSTORABLE_ESCAPE.test(text)) return value;
  // Iterative: a signed body may nest deeper than a recursion would go.
  const pending: object[] = [value];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const fields = node as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const item = fields[key];
      if (item && typeof item === 'object') pending.push(item);
      const clean = Array.isArray(node) ? key : storable(key);
      if (clean !== key) delete fields[key];
      fields[clean] = typeof item === 'string' ? storable(item) : item;
    }
  }
  return value;
}
