import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Test } from 'supertest';
import { WorkGithubDelivery } from '../../entities/work/github';
import type { Account } from './factories';
import type { TestStack } from './stack';
import { eventually } from './wait';

const ROOT = join(__dirname, '..', '..');

/**
 * Signatures made by GitHub's own library, @octokit/webhooks-methods `sign` (X-Hub-Signature-256 value),
 * and its `verify` of each. The package is ESM-only and jest runs CommonJS, so it runs in a child node
 * process, once per batch of bodies.
 */
export function octokitSign(secret: string, bodies: string[]): string[] {
  const script = `import { sign, verify } from '@octokit/webhooks-methods';
const { secret, bodies } = JSON.parse(process.argv[1]);
const out = [];
for (const body of bodies) {
  const signature = await sign(secret, body);
  if (!(await verify(secret, body, signature))) throw new Error('octokit refused its own signature');
  out.push(signature);
}
process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify({ secret, bodies })], {
      cwd: ROOT,
    }).toString(),
  ) as string[];
}

/** A GitHub issues / pull_request event body for `owner/name#number`. */
export function githubEvent(
  kind: 'issues' | 'pull_request',
  action: string,
  repository: string,
  number: number,
  updatedAt: string,
): string {
  const subject = {
    number,
    state: action === 'closed' ? 'closed' : 'open',
    updated_at: updatedAt,
    title: `#${number}`,
  };
  return JSON.stringify({
    action,
    [kind === 'issues' ? 'issue' : 'pull_request']: subject,
    repository: { full_name: repository },
    sender: { login: 'octocat' },
  });
}

export interface Delivery {
  body: string;
  event: string;
  id: string;
  signature?: string;
}

/** POSTs a delivery as GitHub does: raw JSON body, X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256. */
export function deliver(stack: TestStack, org: string | undefined, d: Delivery): Test {
  const req = stack.http
    .post(`/api/work/github/webhook${org ? `?org=${org}` : ''}`)
    .set('Content-Type', 'application/json')
    .set('X-GitHub-Event', d.event)
    .set('X-GitHub-Delivery', d.id)
    .set('User-Agent', 'GitHub-Hookshot/test');
  if (d.signature) req.set('X-Hub-Signature-256', d.signature);
  return req.send(d.body);
}

/** Sets the organisation's webhookSecret through the API; returns it. */
export async function setSecret(stack: TestStack, owner: Account, secret?: string): Promise<string> {
  const res = await stack.http
    .put('/api/work/github/secret')
    .set(owner.auth)
    .send(secret ? { secret } : {});
  if (res.status !== 200) throw new Error(`secret not set: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.secret as string;
}

/** The stored deliveries of an organisation. */
export const storedDeliveries = (stack: TestStack, tenantId: string) =>
  stack.services.orm.em
    .fork()
    .find(WorkGithubDelivery, { tenantId }, { filters: { tenant: false }, orderBy: { id: 'asc' } });

/** Waits until every stored delivery of the organisation is processed. */
export const allProcessed = (stack: TestStack, tenantId: string) =>
  eventually(
    async () => {
      const rows = await storedDeliveries(stack, tenantId);
      return rows.length > 0 && rows.every((r) => r.processedAt) ? rows : null;
    },
    { what: 'the deliveries processed' },
  );
