import { randomBytes } from 'node:crypto';
import { hashToken } from '../../lib/tokens';
import { crc32 } from 'node:zlib';
import { apiKeyModules, type ApiKeyModule } from '../../entities/apikeys/apiKey';

/**
 * Integration keys look like `psk_<module>_<43 random base62><6 base62 checksum>`, e.g.
 * `psk_knowledge_4f0VbQ...`: 43 base62 characters carry 256 random bits; the checksum (CRC32 of everything
 * before it, as GitHub's tokens do) lets secret scanners and this server refuse a mistyped or made-up key
 * without a lookup. Scanners match `\bpsk_(knowledge|core)_[0-9A-Za-z]{49}\b`.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
/** Random characters shown after `psk_<module>_` in lists, to tell keys apart (~48 of the 256 bits). */
const VISIBLE_RANDOM = 8;
const KEY = new RegExp(
  `^psk_(${apiKeyModules.join('|')})_([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

export interface GeneratedKey {
  /** The key itself: shown once, never stored. */
  key: string;
  /** Its visible start, e.g. `psk_core_Ab3dE5fG`. */
  prefix: string;
  hash: string;
}

export function generateApiKey(module: ApiKeyModule): GeneratedKey {
  const body = `psk_${module}_${randomBase62(RANDOM_LENGTH)}`;
  const key = body + checksum(body);
  return { key, prefix: body.slice(0, body.length - RANDOM_LENGTH + VISIBLE_RANDOM), hash: hashToken(key) };
}

/** The module of a well-formed key with a valid checksum; null for anything else. */
export function parseApiKey(key: string): ApiKeyModule | null {
  const match = KEY.exec(key);
  if (!match || checksum(key.slice(0, -CHECKSUM_LENGTH)) !== match[3]) return null;
  return match[1] as ApiKeyModule;
}

/** Uniform base62: bytes >= 248 (= 4 x 62) are skipped so every character is equally likely. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
  }
  return out;
}

function checksum(text: string): string {
  let n = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++, n = Math.floor(n / 62)) out = ALPHABET[n % 62] + out;
  return out;
}
