import type { Services } from '../services';
import { articleMailKey, linkToken, verifyLinkToken } from './subscriberMail';

/** Only what link tokens use: a secret derived per purpose. */
const servicesWith = (secret: string) =>
  ({ deriveSecret: (purpose: string) => `${secret}:${purpose}` }) as unknown as Services;

describe('subscriber link tokens', () => {
  const services = servicesWith('one');
  const id = '01939a2b-0000-7000-8000-000000000001';

  it('verifies a token of its purpose and names its subscriber', () => {
    expect(verifyLinkToken(services, linkToken(services, id, 'confirm'), 'confirm')).toBe(id);
    expect(verifyLinkToken(services, linkToken(services, id, 'unsubscribe'), 'unsubscribe')).toBe(id);
  });

  it('refuses a token of the other purpose, even with its purpose renamed', () => {
    const unsubscribe = linkToken(services, id, 'unsubscribe');
    expect(verifyLinkToken(services, unsubscribe, 'confirm')).toBeNull();
    expect(verifyLinkToken(services, unsubscribe.replace('.unsubscribe.', '.confirm.'), 'confirm')).toBeNull();
  });

  it('refuses a token for another subscriber, under another secret, or altered', () => {
    const token = linkToken(services, id, 'confirm');
    expect(verifyLinkToken(services, token.replace(id, '01939a2b-0000-7000-8000-000000000002'), 'confirm')).toBeNull();
    expect(verifyLinkToken(servicesWith('two'), token, 'confirm')).toBeNull();
    expect(verifyLinkToken(services, token.slice(0, -1), 'confirm')).toBeNull();
    expect(verifyLinkToken(services, `${token}x`, 'confirm')).toBeNull();
  });

  it('refuses malformed tokens', () => {
    for (const token of [
      '',
      'x',
      `${id}.confirm`,
      `${id}.confirm.`,
      `not-a-uuid.confirm.${linkToken(services, id, 'confirm').split('.')[2]}`,
    ]) {
      expect(verifyLinkToken(services, token, 'confirm')).toBeNull();
    }
  });
});

describe('articleMailKey', () => {
  it('is unique per article and subscriber', () => {
    expect(articleMailKey('a1', 's1')).toBe('kb:a1:s1');
    expect(articleMailKey('a1', 's2')).not.toBe(articleMailKey('a1', 's1'));
  });
});
