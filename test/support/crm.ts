import type { Account } from './factories';
import type { TestStack } from './stack';

/** A customer made through the API; returns its body. */
export async function makeCustomer(
  stack: TestStack,
  account: Account,
  body: Record<string, unknown> = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await stack.http
    .post('/api/customers')
    .set(account.auth)
    .send({ kind: 'person', name: 'Ada Lovelace', ...body });
  if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A pipeline with three stages (10 %, 50 %, 90 %) made through the API. */
export async function makePipeline(
  stack: TestStack,
  account: Account,
  name = 'Sales',
): Promise<{ id: string; stages: { id: string; probability: number }[] }> {
  const res = await stack.http
    .post('/api/pipelines')
    .set(account.auth)
    .send({
      name,
      stages: [
        { name: 'Lead', probability: 10 },
        { name: 'Proposal', probability: 50 },
        { name: 'Negotiation', probability: 90 },
      ],
    });
  if (res.status !== 201) throw new Error(`pipeline not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function makeDeal(
  stack: TestStack,
  account: Account,
  body: Record<string, unknown>,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await stack.http
    .post('/api/deals')
    .set(account.auth)
    .send({ title: 'Deal', amount: 100_000, currency: 'EUR', ...body });
  if (res.status !== 201) throw new Error(`deal not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An integration key of the core hub with the scope write. */
export async function hubKey(stack: TestStack, account: Account, scope: 'read' | 'write' = 'write'): Promise<string> {
  const res = await stack.http
    .post('/api/hub/keys')
    .set(account.auth)
    .send({ label: `CRM ${scope}`, scope });
  if (res.status !== 201) throw new Error(`key not created: ${res.status}`);
  return res.body.key;
}
