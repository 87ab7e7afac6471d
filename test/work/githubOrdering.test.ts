import { randomUUID } from 'node:crypto';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { allProcessed, deliver, githubEvent, octokitSign, setSecret, storedDeliveries } from '../support/work';

/**
 * Regression: the per-item updated_at guard of the GitHub webhook (processGithubDelivery) is what makes
 * out-of-order deliveries end in the latest state: a PATCH resending the unchanged link must keep it, and
 * deliveries of the same second (GitHub's resolution) end in the state of the one received last.
 */
describe('GitHub webhook ordering guard', () => {
  let stack: TestStack;
  let owner: Account;
  let secret: string;
  const repo = 'acme/rocket';
  beforeAll(async () => {
    stack = await startStack({ workers: ['github-deliveries'] });
    owner = await createAccount(stack);
    secret = await setSecret(stack, owner);
  });
  afterAll(() => stack.close());

  const item = async (number: number) =>
    (
      await stack.http
        .post('/api/work/items')
        .set(owner.auth)
        .send({ title: `Track #${number}`, link: { provider: 'github', repository: repo, number } })
        .expect(201)
    ).body.id as string;
  const get = async (id: string) => (await stack.http.get(`/api/work/items/${id}`).set(owner.auth).expect(200)).body;
  const send = async (
    kind: 'issues' | 'pull_request',
    action: string,
    number: number,
    updatedAt: string,
    id = randomUUID(),
  ) => {
    const body = githubEvent(kind, action, repo, number, updatedAt);
    const [signature] = octokitSign(secret, [body]);
    const res = await deliver(stack, owner.tenantId, { body, event: kind, id, signature }).expect(200);
    await allProcessed(stack, owner.tenantId);
    return res.body as { received: boolean; duplicate?: boolean };
  };

  it('keeps the ordering guard when a PATCH resends the unchanged link (e.g. only the title is edited)', async () => {
    const id = await item(11);
    // GitHub: closed at 10:00, reopened at 10:05. The reopened delivery arrives first.
    await send('issues', 'reopened', 11, '2026-02-01T10:05:00Z');
    expect((await get(id)).status).toBe('in_progress');

    // A client edits the title and sends the item's link back as it is (same provider, repository, number).
    const patched = await stack.http
      .patch(`/api/work/items/${id}`)
      .set(owner.auth)
      .send({ title: 'Renamed', link: { provider: 'github', repository: repo, number: 11 } });
    expect(patched.status).toBe(200);

    // The older "closed" delivery arrives late: it must be stale, the issue is open on GitHub.
    await send('issues', 'closed', 11, '2026-02-01T10:00:00Z');
    const after = await get(id);
    expect(after.status).toBe('in_progress');
    // The link did not change, so the last event applied must still be remembered (docs: "A changed link forgets").
    expect(after.link.lastEventAt).toBe('2026-02-01T10:05:00.000Z');
  });

  it('ends in_progress when an issue is closed then reopened within the same second (delivered in order)', async () => {
    const id = await item(12);
    // GitHub timestamps have one-second resolution: a close and an immediate reopen (a misclick, a bot)
    // carry the same updated_at. Delivered in the order they happened, the final state must be the last one.
    await send('issues', 'closed', 12, '2026-02-02T09:00:00Z');
    expect((await get(id)).status).toBe('done');
    await send('issues', 'reopened', 12, '2026-02-02T09:00:00Z');
    expect((await get(id)).status).toBe('in_progress');
  });

  it('keeps the guard when the link is resent with another case, forgets it when the link changes', async () => {
    const id = await item(13);
    await send('issues', 'reopened', 13, '2026-02-03T10:05:00Z');
    await stack.http
      .patch(`/api/work/items/${id}`)
      .set(owner.auth)
      .send({ link: { provider: 'github', repository: 'ACME/Rocket', number: 13 } })
      .expect(200);
    expect((await get(id)).link.lastEventAt).toBe('2026-02-03T10:05:00.000Z');
    await stack.http
      .patch(`/api/work/items/${id}`)
      .set(owner.auth)
      .send({ link: { provider: 'github', repository: repo, number: 14 } })
      .expect(200);
    expect((await get(id)).link).toEqual({ provider: 'github', repository: repo, number: 14, lastEventAt: null });
    await stack.http
      .patch(`/api/work/items/${id}`)
      .set(owner.auth)
      .send({ link: { provider: 'github', repository: repo, number: 13 } })
      .expect(200);
    // Back to #13: a changed link, so even the older close applies.
    await send('issues', 'closed', 13, '2026-02-03T10:00:00Z');
    expect((await get(id)).status).toBe('done');
  });

  it('on the same second, the delivery received last wins; replaying the earlier one changes nothing', async () => {
    const id = await item(15);
    await send('issues', 'reopened', 15, '2026-02-04T09:00:00Z');
    const closedId = randomUUID();
    await send('issues', 'closed', 15, '2026-02-04T09:00:00Z', closedId);
    expect((await get(id)).status).toBe('done');
    const reopenedId = randomUUID();
    await send('issues', 'reopened', 15, '2026-02-04T09:00:00Z', reopenedId);
    expect((await get(id)).status).toBe('in_progress');
    // GitHub redelivering the close (same X-GitHub-Delivery) is a duplicate: the item stays as the last one received left it.
    expect(await send('issues', 'closed', 15, '2026-02-04T09:00:00Z', closedId)).toEqual({
      received: true,
      duplicate: true,
    });
    expect((await get(id)).status).toBe('in_progress');
    const rows = await storedDeliveries(stack, owner.tenantId);
    expect(rows.find((r) => r.deliveryId === reopenedId)!.outcome).toBe('applied');
    expect(rows.find((r) => r.deliveryId === closedId)!.outcome).toBe('applied');
  });
});
