import type { Response } from 'supertest';
import { MailMessage } from '../../entities/platform/mail';
import { accountLinkQueue } from '../../queues/identity';
import type { TestStack } from './stack';
import { eventually } from './wait';

/** Identity stacks raise the auth rate limits, except where a test is about them (every request comes from 127.0.0.1). */
export const relaxedLimits = {
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  SIGNIN_FAILURES_PER_ADDRESS: '10000',
  SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '10000',
  SIGNIN_FAILURES_BEFORE_DELAY: '10000',
};

/** Asserts an RFC 9457 answer: status, media type and stable code. Returns the body for further checks. */
export function expectProblem(res: Response, status: number, code: string): Record<string, unknown> {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(res.body).toMatchObject({ type: `/problems/${code}`, status });
  return res.body as Record<string, unknown>;
}

/** Asserts a 400 validation_failed naming these fields. */
export function expectFieldErrors(res: Response, ...fields: string[]): void {
  expectProblem(res, 400, 'validation_failed');
  const named = (res.body.errors as { field: string }[]).map((e) => e.field);
  for (const field of fields) expect(named).toContain(field);
}

/** The mails of the outbox to an address, oldest first (what the worker has not handled yet included). */
export async function mailsTo(stack: TestStack, to: string, template?: string): Promise<MailMessage[]> {
  return stack.services.orm.em
    .fork()
    .find(MailMessage, { to: to.toLowerCase(), ...(template ? { template } : {}) }, { orderBy: { id: 'asc' } });
}

/**
 * Waits until the mail worker has handled the newest mail of this template to `to` (kept in the outbox or
 * sent), once there are at least `count` of them (links asked through a queue arrive after the 202).
 */
export async function deliveredMail(stack: TestStack, to: string, template: string, count = 1): Promise<MailMessage> {
  return eventually(
    async () => {
      const mails = await mailsTo(stack, to, template);
      const last = mails.at(-1);
      return mails.length >= count && last && last.status !== 'queued' ? last : null;
    },
    { what: `${template} mail #${count} to ${to}` },
  );
}

/** Waits until every queued request for a reset or confirmation link has been handled (mailed or found unknown). */
export async function accountLinksHandled(stack: TestStack): Promise<void> {
  const queue = stack.services.queues.get(accountLinkQueue);
  await eventually(
    async () =>
      Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).every((n) => n === 0),
    { what: 'account link requests handled' },
  );
}

/** The token of the link in a mail. */
export function linkToken(mail: MailMessage): string {
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no token in mail ${mail.template}: ${mail.text}`);
  return decodeURIComponent(token);
}
