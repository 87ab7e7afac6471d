import { createHmac } from 'node:crypto';
import { githubDeliveryJobId, githubSignatureMatches } from './receiveGithubWebhook';

describe('githubSignatureMatches', () => {
  const body = Buffer.from('{"action":"closed"}');
  const signature = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;

  it('accepts the HMAC-SHA256 of the exact body under the secret', () => {
    expect(githubSignatureMatches('s3cret', body, signature)).toBe(true);
  });

  it('refuses another secret, another body, a truncated or unprefixed signature', () => {
    expect(githubSignatureMatches('other', body, signature)).toBe(false);
    expect(githubSignatureMatches('s3cret', Buffer.from('{"action":"closed"} '), signature)).toBe(false);
    expect(githubSignatureMatches('s3cret', body, signature.slice(0, -1))).toBe(false);
    expect(githubSignatureMatches('s3cret', body, signature.slice('sha256='.length))).toBe(false);
    expect(githubSignatureMatches('s3cret', body, '')).toBe(false);
  });
});

describe('githubDeliveryJobId', () => {
  it('holds no colon (BullMQ refuses them in custom ids)', () => {
    expect(githubDeliveryJobId('t-1', 'd-2')).toBe('gh.t-1.d-2');
  });
});
