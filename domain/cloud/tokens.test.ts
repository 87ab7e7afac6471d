import type { Services } from '../services';
import { checkToken, inlineToken, signedToken } from './tokens';

const services = (secret: string) =>
  ({
    deriveSecret: (purpose: string) => `${secret}:${purpose}`,
    config: { CLOUD_LINK_TTL_SECONDS: 900 },
  }) as unknown as Pick<Services, 'deriveSecret' | 'config'>;
const ours = services('a');
const FILE = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const problem = (code: string) => expect.objectContaining({ status: 403, code });

describe('signed tokens of the drive', () => {
  let now = Date.parse('2026-12-02T10:00:00Z');
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  it('carries its expiry in unix seconds, CLOUD_LINK_TTL_SECONDS by default', () => {
    expect(signedToken(ours, 'download', FILE).split('.')[0]).toBe(String(now / 1000 + 900));
    expect(signedToken(ours, 'download', FILE, 60).split('.')[0]).toBe(String(now / 1000 + 60));
    expect(inlineToken(ours, FILE)).toBe(signedToken(ours, 'inline', FILE));
  });

  it('is valid for its purpose and id until its expiry', () => {
    const t = signedToken(ours, 'download', FILE, 60);
    expect(() => checkToken(ours, 'download', FILE, t)).not.toThrow();
    now += 60_000;
    expect(() => checkToken(ours, 'download', FILE, t)).not.toThrow();
    now += 1000;
    expect(() => checkToken(ours, 'download', FILE, t)).toThrow(problem('download_token_expired'));
  });

  it('is worthless for another purpose, id or key, or altered', () => {
    const t = signedToken(ours, 'inline', FILE);
    expect(() => checkToken(ours, 'download', FILE, t)).toThrow(problem('download_token_invalid'));
    expect(() => checkToken(ours, 'inline', FILE.replace(/b$/, 'c'), t)).toThrow(problem('inline_token_invalid'));
    expect(() => checkToken(services('b'), 'inline', FILE, t)).toThrow(problem('inline_token_invalid'));
    // A later expiry with the old signature.
    const [exp, sig] = t.split('.');
    expect(() => checkToken(ours, 'inline', FILE, `${Number(exp) + 3600}.${sig}`)).toThrow(
      problem('inline_token_invalid'),
    );
    // A share's token answers as a download token.
    expect(() => checkToken(ours, 'share', FILE, t)).toThrow(problem('download_token_invalid'));
  });

  it('refuses a missing or malformed token as invalid, not expired', () => {
    for (const t of [undefined, '', '.', 'abc', 'abc.def', '1e400.x', `${Number.MAX_SAFE_INTEGER + 2}.x`]) {
      expect(() => checkToken(ours, 'inline', FILE, t)).toThrow(problem('inline_token_invalid'));
    }
  });
});
