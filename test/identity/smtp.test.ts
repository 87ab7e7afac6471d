import { uniqueEmail } from '../support/factories';
import { deliveredMail, linkToken, relaxedLimits } from '../support/identity';
import { startSmtp } from '../support/smtp';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/** Plain-text body of a raw message, undoing quoted-printable soft line breaks and escapes. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('mail delivery through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let stack: TestStack;
  beforeAll(async () => {
    smtp = await startSmtp();
    stack = await startStack({
      env: { ...relaxedLimits, SMTP_URL: smtp.url, MAIL_FROM: 'Suite <no-reply@suite.test>' },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  it('sends the confirmation mail to the SMTP server, whose link confirms the address', async () => {
    const email = uniqueEmail('smtp');
    expect((await stack.http.post('/auth/register').send({ email, password: 'smtp-test-password' })).status).toBe(202);
    const message = await eventually(() => smtp.received.find((m) => m.to.includes(email)), {
      what: 'mail received by the SMTP server',
    });
    const text = decoded(message.raw);
    expect(text).toMatch(/^From: Suite <no-reply@suite\.test>/m);
    expect(text).toMatch(/^Subject: Confirm your e-mail address/m);

    const outbox = await deliveredMail(stack, email, 'confirm_email');
    expect(outbox.status).toBe('sent');
    // Named after the outbox row: a copy sent again after a crash carries the same Message-ID.
    expect(text).toMatch(new RegExp(`^Message-ID: <${outbox.id}@`, 'mi'));
    expect(outbox.sentAt).toBeInstanceOf(Date);
    const token = /token=([A-Za-z0-9_-]+)/.exec(text)![1];
    expect(token).toBe(linkToken(outbox));
    expect((await stack.http.post('/auth/confirm-email').send({ token })).status).toBe(200);
  });
});
