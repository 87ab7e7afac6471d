import { ChatMessage } from '../../entities/work/chat';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('chat channels and integrations', () => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    member = await addMember(stack, owner, 'member');
  });
  afterAll(() => stack.close());

  const messageCount = () => stack.services.orm.em.fork().count(ChatMessage, {}, { filters: { tenant: false } });
  const channel = async (account: Account, name: string) =>
    (await stack.http.post('/api/chat/channels').set(account.auth).send({ name, topic: 'Builds' }).expect(201))
      .body as { id: string };
  const token = async (account: Account, channelId: string, label = 'CI') =>
    (await stack.http.post(`/api/chat/channels/${channelId}/tokens`).set(account.auth).send({ label }).expect(201))
      .body as { id: string; token: string; url: string; prefix: string };

  it('posts with a token in the path or in ?token=, readable by members', async () => {
    const ch = await channel(owner, 'deploys');
    expectProblem(
      await stack.http.post('/api/chat/channels').set(owner.auth).send({ name: 'deploys' }),
      409,
      'channel_exists',
    );
    const t = await token(owner, ch.id);
    expect(t.token).toMatch(/^pci_[A-Za-z0-9_-]{43}$/);
    expect(t.url).toMatch(new RegExp(`/api/integrations/${t.token}$`));
    expect(t.token.startsWith(t.prefix)).toBe(true);

    const first = await stack.http.post(`/api/integrations/${t.token}`).send({ text: 'Deployed v1.2.3' }).expect(201);
    expect(first.body).toMatchObject({ channelId: ch.id, tokenId: t.id, author: 'CI', text: 'Deployed v1.2.3' });
    await stack.http
      .post(`/api/integrations/messages?token=${t.token}`)
      .send({ text: 'Rolled back', username: 'deploy-bot' })
      .expect(201);

    const read = await stack.http.get(`/api/chat/channels/${ch.id}/messages`).set(member.auth).expect(200);
    expect(read.body.items.map((m: { author: string; text: string }) => `${m.author}: ${m.text}`)).toEqual([
      'deploy-bot: Rolled back',
      'CI: Deployed v1.2.3',
    ]);
    expect(
      (await stack.http.get('/api/chat/channels').set(member.auth).expect(200)).body.items.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['deploys']);

    // The token list shows prefixes only, and records the last use.
    const tokens = await stack.http.get(`/api/chat/channels/${ch.id}/tokens`).set(owner.auth).expect(200);
    expect(tokens.body.items).toEqual([
      expect.objectContaining({ id: t.id, prefix: t.prefix, lastUsedAt: expect.any(String) }),
    ]);
    expect(JSON.stringify(tokens.body)).not.toContain(t.token);
  });

  it('refuses a wrong, malformed or deleted token and stores nothing', async () => {
    const ch = await channel(owner, 'alerts');
    const t = await token(owner, ch.id);
    const before = await messageCount();
    const wrong = `pci_${'A'.repeat(43)}`;
    expectProblem(
      await stack.http.post(`/api/integrations/${wrong}`).send({ text: 'spoofed' }),
      401,
      'integration_token_invalid',
    );
    expectProblem(
      await stack.http.post('/api/integrations/not-a-token').send({ text: 'spoofed' }),
      401,
      'integration_token_invalid',
    );
    expectProblem(
      await stack.http.post('/api/integrations/messages').send({ text: 'spoofed' }),
      401,
      'integration_token_invalid',
    );
    expectProblem(
      await stack.http.post(`/api/integrations/messages?token=${t.token.slice(0, -1)}x`).send({ text: 'spoofed' }),
      401,
      'integration_token_invalid',
    );
    await stack.http.delete(`/api/chat/tokens/${t.id}`).set(owner.auth).expect(204);
    expectProblem(
      await stack.http.post(`/api/integrations/${t.token}`).send({ text: 'after revocation' }),
      401,
      'integration_token_invalid',
    );
    expect(await messageCount()).toBe(before);
    expectProblem(await stack.http.post(`/api/integrations/${wrong}`).send({}), 400, 'validation_failed');
  });

  it('lets members read but not manage', async () => {
    const ch = await channel(owner, 'members-only');
    expectProblem(
      await stack.http.post('/api/chat/channels').set(member.auth).send({ name: 'nope' }),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http.post(`/api/chat/channels/${ch.id}/tokens`).set(member.auth).send({ label: 'x' }),
      403,
      'permission_denied',
    );
    // The label is stored trimmed and is the messages' author: blanks only would be an empty author.
    expectProblem(
      await stack.http.post(`/api/chat/channels/${ch.id}/tokens`).set(owner.auth).send({ label: '   ' }),
      400,
      'validation_failed',
    );
    expectProblem(await stack.http.delete(`/api/chat/channels/${ch.id}`).set(member.auth), 403, 'permission_denied');
    await stack.http.get(`/api/chat/channels/${ch.id}`).set(member.auth).expect(200);
    expectProblem(await stack.http.get(`/api/chat/channels/${ch.id}/messages`), 401, 'token_missing');
  });

  it("isolates organisations: another organisation's channels and tokens are 404s, its messages unseen", async () => {
    const ch = await channel(owner, 'private');
    const t = await token(owner, ch.id);
    await stack.http.post(`/api/integrations/${t.token}`).send({ text: 'secret plans' }).expect(201);
    const stranger = await createAccount(stack);
    for (const req of [
      stack.http.get(`/api/chat/channels/${ch.id}`),
      stack.http.get(`/api/chat/channels/${ch.id}/messages`),
      stack.http.get(`/api/chat/channels/${ch.id}/tokens`),
      stack.http.post(`/api/chat/channels/${ch.id}/tokens`).send({ label: 'x' }),
      stack.http.delete(`/api/chat/channels/${ch.id}`),
      stack.http.delete(`/api/chat/tokens/${t.id}`),
    ]) {
      expectProblem(await req.set(stranger.auth), 404, 'not_found');
    }
    expect((await stack.http.get('/api/chat/channels').set(stranger.auth)).body.items).toEqual([]);
    // A channel of the same name is theirs alone.
    const theirs = await channel(stranger, 'private');
    expect((await stack.http.get(`/api/chat/channels/${theirs.id}/messages`).set(stranger.auth)).body.items).toEqual(
      [],
    );
  });

  it('deletes a channel with its tokens and messages', async () => {
    const ch = await channel(owner, 'temporary');
    const t = await token(owner, ch.id);
    await stack.http.post(`/api/integrations/${t.token}`).send({ text: 'bye' }).expect(201);
    await stack.http.delete(`/api/chat/channels/${ch.id}`).set(owner.auth).expect(204);
    expectProblem(
      await stack.http.post(`/api/integrations/${t.token}`).send({ text: 'again' }),
      401,
      'integration_token_invalid',
    );
    expect(
      await stack.services.orm.em.fork().count(ChatMessage, { channelId: ch.id }, { filters: { tenant: false } }),
    ).toBe(0);
  });

  it('leaves no message of a channel deleted while tools post into it', async () => {
    for (let round = 0; round < 4; round++) {
      const ch = await channel(owner, `racing-${round}`);
      const t = await token(owner, ch.id);
      const posts = Array.from({ length: 15 }, () =>
        stack.http.post(`/api/integrations/${t.token}`).send({ text: 'build' }),
      );
      const [deleted, ...answers] = await Promise.all([
        stack.http.delete(`/api/chat/channels/${ch.id}`).set(owner.auth),
        ...posts,
      ]);
      expect(deleted.status).toBe(204);
      // 401 once the token is gone (429 when those refusals pass the address's limit).
      answers.forEach((a) => expect([201, 401, 429]).toContain(a.status));
      // A post read the token before the deletion and stored its message after it: an orphan of no channel.
      expect(
        await stack.services.orm.em.fork().count(ChatMessage, { channelId: ch.id }, { filters: { tenant: false } }),
      ).toBe(0);
    }
  });
});
