import { hashToken } from '../../lib/tokens';
import { generateApiKey, parseApiKey } from './keyFormat';

describe('API key format', () => {
  it('is psk_<module>_ with 43 random and 6 checksum base62 characters', () => {
    const { key, prefix, hash } = generateApiKey('knowledge');
    expect(key).toMatch(/^psk_knowledge_[0-9A-Za-z]{49}$/);
    expect(prefix).toBe(key.slice(0, 'psk_knowledge_'.length + 8));
    expect(hash).toBe(hashToken(key));
    expect(parseApiKey(key)).toBe('knowledge');
  });

  it('tells the module of a core key', () => {
    expect(parseApiKey(generateApiKey('core').key)).toBe('core');
  });

  it('refuses a mistyped key by its checksum, and anything malformed', () => {
    const { key } = generateApiKey('core');
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    expect(parseApiKey(key.slice(0, -1) + last)).toBeNull();
    const body = key.at(12) === 'a' ? 'b' : 'a';
    expect(parseApiKey(key.slice(0, 12) + body + key.slice(13))).toBeNull();
    expect(parseApiKey(key.replace('psk_core_', 'psk_vr_'))).toBeNull();
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key} `)).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('core').key));
    expect(keys.size).toBe(200);
  });
});
