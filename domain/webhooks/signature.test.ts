import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signedHeaders } from './signature';

// The third-party implementation (the `standardwebhooks` package) verifies what we sign.
describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ type: 'customer.created', data: { id: 'c1' } });
  const now = Math.floor(Date.now() / 1000);
  const current = newSigningSecret();
  const previous = newSigningSecret();
  const other = newSigningSecret();

  it('has the whsec_ form of 24 random bytes', () => {
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(current).not.toBe(previous);
  });

  it.each([
    ['the current secret', [current], current, true],
    ['the previous secret during the grace period', [current, previous], previous, true],
    ['the current secret beside the previous one', [current, previous], current, true],
    ['another secret', [current, previous], other, false],
  ])('verifies with %s: %s', (_name, signing, verifying, ok) => {
    const headers = signedHeaders(signing, 'msg_1', now, body);
    const verify = () => new Webhook(verifying).verify(body, headers);
    if (ok) expect(verify()).toEqual(JSON.parse(body));
    else expect(verify).toThrow();
  });

  it('refuses an altered body or id', () => {
    const headers = signedHeaders([current], 'msg_1', now, body);
    expect(() => new Webhook(current).verify(body + ' ', headers)).toThrow();
    expect(() => new Webhook(current).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });
});
