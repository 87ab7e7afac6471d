import { randomUUID } from 'node:crypto';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { allProcessed, deliver, githubEvent, octokitSign, setSecret, storedDeliveries } from '../support/work';

describe('GitHub webhook of work items', () => {
  let stack: TestStack;
  let owner: Account;
  let secret: string;
  const repo = 'Acme/Rocket';
  beforeAll(async () => {
    stack = await startStack({ workers: ['github-deliveries'] });
    owner = await createAccount(stack);
    secret = await setSecret(stack, owner);
  });
  afterAll(() => stack.close());

  const item = async (number: number) => {
    const res = await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: `Track #${number}`, link: { provider: 'github', repository: repo, number } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const statusOf = async (id: string) =>
    (await stack.http.get(`/api/work/items/${id}`).set(owner.auth)).body.status as string;
  const signed = (bodies: string[], key = secret) => octokitSign(key, bodies);

  it('gives the Payload URL naming the organisation and never shows the secret again', async () => {
    const res = await stack.http.get('/api/work/github').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      configured: true,
      webhookUrl: expect.stringMatching(new RegExp(`/api/work/github/webhook\\?org=${owner.tenantId}$`)),
      rotatedAt: expect.any(String),
    });
  });

  it('applies a delivery signed by @octokit/webhooks-methods: issue closed -> done, reopened -> in_progress', async () => {
    const id = await item(1);
    const body = githubEvent('issues', 'closed', repo, 1, '2026-01-01T10:00:00Z');
    const [signature] = signed([body]);
    const res = await deliver(stack, owner.tenantId, { body, event: 'issues', id: randomUUID(), signature });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    await allProcessed(stack, owner.tenantId);
    expect(await statusOf(id)).toBe('done');

    const reopen = githubEvent('issues', 'reopened', repo, 1, '2026-01-01T11:00:00Z');
    await deliver(stack, owner.tenantId, {
      body: reopen,
      event: 'issues',
      id: randomUUID(),
      signature: signed([reopen])[0],
    });
    await allProcessed(stack, owner.tenantId);
    expect(await statusOf(id)).toBe('in_progress');
  });

  it('sets a pull request item resolved on closed', async () => {
    const id = await item(2);
    const body = githubEvent('pull_request', 'closed', repo.toLowerCase(), 2, '2026-01-02T10:00:00Z');
    await deliver(stack, owner.tenantId, {
      body,
      event: 'pull_request',
      id: randomUUID(),
      signature: signed([body])[0],
    });
    await allProcessed(stack, owner.tenantId);
    expect(await statusOf(id)).toBe('resolved');
  });

  it('refuses an invalid signature with 403 and stores nothing', async () => {
    const before = (await storedDeliveries(stack, owner.tenantId)).length;
    const body = githubEvent('issues', 'closed', repo, 3, '2026-01-03T10:00:00Z');
    const [other] = signed([body], 'not-the-secret-of-this-organisation');
    expectProblem(
      await deliver(stack, owner.tenantId, { body, event: 'issues', id: randomUUID(), signature: other }),
      403,
      'signature_invalid',
    );
    // Signed, then altered in transit.
    const [good] = signed([body]);
    expectProblem(
      await deliver(stack, owner.tenantId, {
        body: body.replace('closed', 'reopened'),
        event: 'issues',
        id: randomUUID(),
        signature: good,
      }),
      403,
      'signature_invalid',
    );
    expectProblem(
      await deliver(stack, owner.tenantId, { body, event: 'issues', id: randomUUID(), signature: 'sha256=00' }),
      403,
      'signature_invalid',
    );
    expect(await storedDeliveries(stack, owner.tenantId)).toHaveLength(before);
  });

  it('answers a silent 200 and stores nothing without a signature or for an unknown source', async () => {
    const before = (await storedDeliveries(stack, owner.tenantId)).length;
    const body = githubEvent('issues', 'closed', repo, 3, '2026-01-03T10:00:00Z');
    const [signature] = signed([body]);
    for (const [org, sig] of [
      [owner.tenantId, undefined],
      [undefined, signature],
      [randomUUID(), signature],
      ['not-a-uuid', signature],
    ] as const) {
      const res = await deliver(stack, org, { body, event: 'issues', id: randomUUID(), signature: sig });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: false });
    }
    const noSecret = await createAccount(stack);
    expect(
      (await deliver(stack, noSecret.tenantId, { body, event: 'issues', id: randomUUID(), signature })).body,
    ).toEqual({ received: false });
    expect(await storedDeliveries(stack, owner.tenantId)).toHaveLength(before);
  });

  it('applies the same delivery three times once', async () => {
    const id = await item(4);
    const body = githubEvent('issues', 'closed', repo, 4, '2026-01-04T10:00:00Z');
    const delivery = { body, event: 'issues', id: randomUUID(), signature: signed([body])[0] };
    const answers = await Promise.all([
      deliver(stack, owner.tenantId, delivery),
      deliver(stack, owner.tenantId, delivery),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.filter((a) => a.body.duplicate)).toHaveLength(1);
    await allProcessed(stack, owner.tenantId);
    const third = await deliver(stack, owner.tenantId, delivery);
    expect(third.body).toEqual({ received: true, duplicate: true });
    const rows = (await storedDeliveries(stack, owner.tenantId)).filter((r) => r.deliveryId === delivery.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'applied', itemsChanged: 1, attempts: 1 });
    expect(await statusOf(id)).toBe('done');
  });

  it('stores and applies a signed delivery whose JSON carries \\u0000 (jsonb refuses it), dropping the NUL', async () => {
    const id = await item(7);
    const event = JSON.parse(githubEvent('issues', 'closed', repo, 7, '2026-01-07T10:00:00Z')) as {
      issue: Record<string, unknown>;
      sender: Record<string, unknown>;
    };
    event.issue.title = 'Null\u0000byte \ud800';
    event.sender['no\u0000te'] = 'a\u0000b';
    const body = JSON.stringify(event);
    expect(body).toContain('\\u0000');
    const deliveryId = randomUUID();
    const res = await deliver(stack, owner.tenantId, {
      body,
      event: 'issues',
      id: deliveryId,
      signature: signed([body])[0],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const rows = await allProcessed(stack, owner.tenantId);
    const stored = rows.find((r) => r.deliveryId === deliveryId)!;
    expect(stored.outcome).toBe('applied');
    expect(stored.payload).toMatchObject({
      issue: { title: 'Nullbyte \ufffd' },
      sender: { login: 'octocat', note: 'ab' },
    });
    expect(await statusOf(id)).toBe('done');
  });

  it('follows updated_at when closed and reopened arrive in reverse order', async () => {
    const a = await item(5);
    const closed = githubEvent('issues', 'closed', repo, 5, '2026-01-05T10:00:00Z');
    const reopened = githubEvent('issues', 'reopened', repo, 5, '2026-01-05T10:05:00Z');
    const [sClosed, sReopened] = signed([closed, reopened]);
    const reopenedId = randomUUID();
    const closedId = randomUUID();
    await deliver(stack, owner.tenantId, { body: reopened, event: 'issues', id: reopenedId, signature: sReopened });
    await allProcessed(stack, owner.tenantId);
    await deliver(stack, owner.tenantId, { body: closed, event: 'issues', id: closedId, signature: sClosed });
    const rows = await allProcessed(stack, owner.tenantId);
    expect(await statusOf(a)).toBe('in_progress');
    expect(rows.find((r) => r.deliveryId === closedId)!.outcome).toBe('stale');

    // The other way round: reopened is the older event, delivered last.
    const b = await item(6);
    const closed6 = githubEvent('pull_request', 'closed', repo, 6, '2026-01-06T10:05:00Z');
    const reopened6 = githubEvent('pull_request', 'reopened', repo, 6, '2026-01-06T10:00:00Z');
    const [s1, s2] = signed([closed6, reopened6]);
    await deliver(stack, owner.tenantId, { body: closed6, event: 'pull_request', id: randomUUID(), signature: s1 });
    await deliver(stack, owner.tenantId, { body: reopened6, event: 'pull_request', id: randomUUID(), signature: s2 });
    await allProcessed(stack, owner.tenantId);
    expect(await statusOf(b)).toBe('resolved');
    const item6 = (await stack.http.get(`/api/work/items/${b}`).set(owner.auth)).body;
    expect(item6.link).toEqual({
      provider: 'github',
      repository: 'acme/rocket',
      number: 6,
      lastEventAt: '2026-01-06T10:05:00.000Z',
    });
  });

  it('records other events and actions, and deliveries about unlinked issues, as ignored', async () => {
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const labeled = githubEvent('issues', 'labeled', repo, 1, '2026-02-01T10:00:00Z');
    const unlinked = githubEvent('issues', 'closed', 'acme/other', 1, '2026-02-01T10:00:00Z');
    const sigs = signed([ping, labeled, unlinked]);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(stack, owner.tenantId, { body: ping, event: 'ping', id: ids[0], signature: sigs[0] });
    await deliver(stack, owner.tenantId, { body: labeled, event: 'issues', id: ids[1], signature: sigs[1] });
    await deliver(stack, owner.tenantId, { body: unlinked, event: 'issues', id: ids[2], signature: sigs[2] });
    const rows = await allProcessed(stack, owner.tenantId);
    expect(ids.map((id) => rows.find((r) => r.deliveryId === id)!.outcome)).toEqual(['ignored', 'ignored', 'ignored']);
  });

  it('rotates the secret through the route: the previous one is refused at once', async () => {
    const old = secret;
    secret = await setSecret(stack, owner);
    expect(secret).not.toBe(old);
    const body = githubEvent('issues', 'closed', repo, 9, '2026-03-01T10:00:00Z');
    expectProblem(
      await deliver(stack, owner.tenantId, {
        body,
        event: 'issues',
        id: randomUUID(),
        signature: signed([body], old)[0],
      }),
      403,
      'signature_invalid',
    );
    expect(
      (await deliver(stack, owner.tenantId, { body, event: 'issues', id: randomUUID(), signature: signed([body])[0] }))
        .body,
    ).toEqual({ received: true });
    // A chosen secret, as typed into GitHub's form.
    expect(await setSecret(stack, owner, 'a-secret-typed-by-hand-0123')).toBe('a-secret-typed-by-hand-0123');
  });

  it('sets the first secret once when two settings race (no undeclared 409)', async () => {
    const fresh = await createAccount(stack);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => stack.http.put('/api/work/github/secret').set(fresh.auth).send({})),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await stack.http.get('/api/work/github').set(fresh.auth)).body.configured).toBe(true);
  });

  it("never applies a delivery to another organisation's items, even signed with the other's secret", async () => {
    const other = await createAccount(stack);
    const otherSecret = await setSecret(stack, other);
    const id = await item(10);
    const body = githubEvent('issues', 'closed', repo, 10, '2026-03-02T10:00:00Z');
    // Signed for the other organisation but addressed to this one: refused.
    expectProblem(
      await deliver(stack, owner.tenantId, {
        body,
        event: 'issues',
        id: randomUUID(),
        signature: signed([body], otherSecret)[0],
      }),
      403,
      'signature_invalid',
    );
    // Addressed to the other organisation: stored there, changes nothing here.
    expect(
      (
        await deliver(stack, other.tenantId, {
          body,
          event: 'issues',
          id: randomUUID(),
          signature: signed([body], otherSecret)[0],
        })
      ).body,
    ).toEqual({ received: true });
    const rows = await allProcessed(stack, other.tenantId);
    expect(rows[0].outcome).toBe('ignored');
    expect(await statusOf(id)).toBe('todo');
  });
});
