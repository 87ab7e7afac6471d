import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import type { CloseDoc } from '../../api/asyncapi';
import { CLOSE_ASSISTANT_DISABLED, CLOSE_FORBIDDEN } from '../../api/vr/assistant';
import { assistantChannel } from '../../api/vr/assistantChannel';
import { SOCKET_CLOSE } from '../../api/ws';
import { WebSocket } from 'ws';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { createAccount } from '../support/factories';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { openSocket, vrOrg, type VrOrg } from '../support/vr';

const scene = {
  objects: ['red valve', 'extinguisher'],
  currentStep: 'close-valve',
  latestEvents: ['object_grabbed:extinguisher'],
};

describe('VR assistant (WebSocket /assistant)', () => {
  let stack: TestStack;
  let ai: FakeOpenAI;
  let org: VrOrg;
  beforeAll(async () => {
    ai = await startFakeOpenAI({
      chunks: ['Look at ', 'the red valve', '.'],
      toolCalls: [{ name: 'highlight_object', args: '{"objectName":"red valve"}' }],
    });
    stack = await startStack({
      workers: false,
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl, OPENAI_MODEL: 'fake-model' },
    });
    org = await vrOrg(stack, 1);
  });
  afterAll(async () => {
    await stack.close();
    await ai.close();
  });

  it('streams deltas, then the highlight_object action, then the complete message', async () => {
    const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
    try {
      socket.send({ type: 'user_message', text: 'Where do I go now?', context: scene });
      const message = await socket.next('message');
      expect(message).toEqual({ type: 'message', text: 'Look at the red valve.' });
      const types = socket.received.map((m) => m.type);
      expect(types).toEqual(['delta', 'delta', 'delta', 'action', 'message']);
      expect(socket.received.filter((m) => m.type === 'delta').map((m) => m.text)).toEqual([
        'Look at ',
        'the red valve',
        '.',
      ]);
      const action = socket.received.find((m) => m.type === 'action')!;
      expect(action.name).toBe('highlight_object');
      expect(typeof action.args).toBe('string');
      expect(JSON.parse(action.args as string)).toEqual({ objectName: 'red valve' });

      // The model got the scene in its system prompt, the question, and both tools.
      const request = ai.requests.at(-1) as {
        model: string;
        stream: boolean;
        messages: { role: string; content: string }[];
        tools: { function: { name: string } }[];
      };
      expect(request).toMatchObject({ model: 'fake-model', stream: true });
      expect(request.messages[0].role).toBe('system');
      expect(request.messages[0].content).toContain('"currentStep":"close-valve"');
      expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Where do I go now?' });
      expect(request.tools.map((t) => t.function.name)).toEqual(['highlight_object', 'show_hint']);

      // A step change is answered too, with the history of the conversation.
      ai.reply = {
        chunks: ['Now open the door.'],
        toolCalls: [{ name: 'show_hint', args: '{"text":"The handle is on the left"}' }],
      };
      socket.send({
        type: 'event',
        name: 'step_changed',
        detail: 'open-door',
        context: { ...scene, currentStep: 'open-door' },
      });
      expect(await socket.next('message', 1)).toEqual({ type: 'message', text: 'Now open the door.' });
      expect(JSON.parse((await socket.next('action', 1)).args as string)).toEqual({
        text: 'The handle is on the left',
      });
      const second = ai.requests.at(-1) as {
        messages: { role: string; content: string | null; tool_calls?: unknown[] }[];
      };
      expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      expect(second.messages.at(-1)!.content).toBe('(scene event) step_changed: open-door');
      expect(second.messages[0].content).toContain('"currentStep":"open-door"');

      // Other events are remembered, not answered.
      const before = ai.requests.length;
      socket.send({ type: 'event', name: 'object_grabbed', detail: 'extinguisher', context: scene });
      socket.send({ type: 'user_message', text: 'And now?' });
      await socket.next('message', 2);
      expect(ai.requests.length).toBe(before + 1);
      expect(
        (ai.requests.at(-1) as { messages: { content: string }[] }).messages.slice(-2).map((m) => m.content),
      ).toEqual(['(scene event) object_grabbed: extinguisher', 'And now?']);
    } finally {
      socket.close();
    }
  });

  // Every frame the server sends in these tests is also checked against this document (api/http/contract.ts).
  it('is described in /asyncapi.json (AsyncAPI 3, valid for the official parser) with the messages the spec names', async () => {
    const res = await stack.http.get('/asyncapi.json');
    expect(res.status).toBe(200);
    const { document, diagnostics } = await new Parser().parse(res.text);
    expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error)).toEqual([]);
    const channel = document!
      .channels()
      .all()
      .find((c) => c.address() === '/assistant')!;
    const names = (action: 'send' | 'receive') =>
      channel
        .operations()
        .filterBy((op) => op.action() === action)
        .flatMap((op) =>
          op
            .messages()
            .all()
            .map((m) => m.name()),
        );
    expect(names('receive')).toEqual(['user_message', 'event']);
    expect(names('send')).toEqual(['delta', 'message', 'action', 'error']);
    expect(document!.servers().all()[0].protocol()).toBe('ws');

    // Every close: the router's, from the table it closes with (api/ws.ts), then the endpoint's own.
    const closes = channel.json<{ 'x-close-codes': CloseDoc[] }>()['x-close-codes'];
    expect(closes).toEqual([
      ...Object.values(SOCKET_CLOSE).map(({ code, reason, description }) => ({ code, reason, description })),
      ...assistantChannel.closes!,
    ]);
    expect(closes.map((c) => `${c.code} ${c.reason}`.trim())).toEqual([
      '4401 token_revoked',
      '4401 token_expired',
      '4403 organization_suspended',
      '4403 module_not_entitled',
      '4403 permission_denied',
      '1013 dependency_unavailable',
      '1001 server shutting down',
      '1002',
      '1007',
      '1009',
      '4503 assistant_disabled',
      '1011 unavailable',
    ]);
    for (const c of closes)
      expect(channel.description()).toContain(`- ${c.code}${c.reason ? ` \`${c.reason}\`` : ''}: ${c.description}`);
    // The endpoint's own are the codes api/vr/assistant.ts closes with; its refusal of a caller without vr.play is the router's.
    expect(assistantChannel.closes!.map((c) => c.code)).toEqual([CLOSE_ASSISTANT_DISABLED, 1011]);
    expect(CLOSE_FORBIDDEN).toBe(SOCKET_CLOSE.permissionDenied.code);
    const docs = await stack.http.get('/openapi.json');
    expect(docs.body.info.description).toContain('/asyncapi.json');
  });

  it('answers malformed messages with an error and keeps the connection', async () => {
    ai.reply = { chunks: ['Fine.'] };
    const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
    try {
      socket.send('not json');
      expect(await socket.next('error', 0)).toMatchObject({ code: 'malformed_json' });
      socket.send({ type: 'shout', text: 'hi' });
      expect(await socket.next('error', 1)).toMatchObject({ code: 'unknown_type' });
      socket.send({ type: 'user_message', text: '' });
      expect(await socket.next('error', 2)).toMatchObject({ code: 'invalid_message' });
      socket.send({ type: 'user_message', text: 'hi', context: 'scene' });
      expect(await socket.next('error', 3)).toMatchObject({ code: 'invalid_message' });
      socket.send({ type: 'event', detail: 'no name' });
      expect(await socket.next('error', 4)).toMatchObject({ code: 'invalid_message' });
      // A scene nested 5,000 levels deep is refused before parsing, and does not become the context.
      socket.send(`{"type":"user_message","text":"hi","context":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
      expect(await socket.next('error', 5)).toMatchObject({
        code: 'invalid_message',
        message: expect.stringMatching(/at most 32 levels/),
      });
      socket.send({ type: 'user_message', text: 'Still there?' });
      expect(await socket.next('message')).toEqual({ type: 'message', text: 'Fine.' });
    } finally {
      socket.close();
    }
  });

  it('reports a failing provider without closing, and refuses a second question while answering', async () => {
    const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
    try {
      ai.failWith = 400;
      socket.send({ type: 'user_message', text: 'Hello?' });
      expect(await socket.next('error')).toMatchObject({ code: 'assistant_unavailable' });
      ai.failWith = null;
      ai.reply = { chunks: ['One', ' answer'] };
      // The first inference is held open so that the second question surely arrives during it.
      ai.holdMs = 500;
      socket.send({ type: 'user_message', text: 'First' });
      socket.send({ type: 'user_message', text: 'Second' });
      expect(await socket.next('error', 1)).toMatchObject({ code: 'assistant_busy' });
      expect(await socket.next('message')).toEqual({ type: 'message', text: 'One answer' });
    } finally {
      ai.holdMs = 0;
      socket.close();
    }
  });

  it('refuses a member without vr.play (closes with 4403)', async () => {
    const other = await vrOrg(stack, 1);
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(
        `update roles set permissions = array_remove(permissions, 'vr.play') where tenant_id = ? and key = 'member'`,
        [other.admin.tenantId],
      );
    await stack.services.permissions.invalidate(other.admin.tenantId);
    const socket = await openSocket(stack, '/assistant', other.members[0].tokens.accessToken);
    expect(await socket.next('error')).toMatchObject({ code: 'permission_denied' });
    expect(await socket.closed).toEqual({ code: 4403, reason: 'permission_denied' });
  });

  it('refuses an organisation without the vr module, and a missing token', async () => {
    const free = await createAccount(stack);
    await expect(openSocket(stack, '/assistant', free.tokens.accessToken)).rejects.toThrow(/403/);
    expect(await refusedUpgrade(free.tokens.accessToken)).toMatchObject({
      status: 403,
      type: 'application/problem+json',
      body: { status: 403, code: 'module_not_entitled' },
    });
    await expect(openSocket(stack, '/assistant', 'garbage')).rejects.toThrow(/401/);
  });

  it('refuses a suspended organisation as HTTP does (403 organization_suspended)', async () => {
    const suspended = await vrOrg(stack, 1);
    const root = await createAccount(stack, { platformAdmin: true });
    expect(
      (await stack.http.post(`/admin/organizations/${suspended.admin.tenantId}/suspend`).set(root.auth).send({}))
        .status,
    ).toBe(200);
    const http = await stack.http.get('/runtime/rooms').set(suspended.members[0].auth);
    expect([http.status, http.body.code]).toEqual([403, 'organization_suspended']);
    expect(await refusedUpgrade(suspended.members[0].tokens.accessToken)).toMatchObject({
      status: 403,
      type: 'application/problem+json',
      body: { status: 403, code: 'organization_suspended' },
    });
  });

  /** The HTTP answer to an upgrade the server refuses: status, content type and problem body. */
  function refusedUpgrade(token: string): Promise<{ status: number; type?: string; body: unknown }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/assistant?token=${encodeURIComponent(token)}`);
      ws.on('open', () => {
        ws.close();
        reject(new Error('the upgrade was accepted'));
      });
      ws.on('error', () => undefined);
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: JSON.parse(text) as unknown,
          }),
        );
      });
    });
  }

  it('serves the same inference on the internal AI route (X-Internal-Secret)', async () => {
    ai.reply = { chunks: ['Hi ', 'there'], toolCalls: [{ name: 'show_hint', args: '{"text":"x"}' }] };
    const body = {
      messages: [{ role: 'user', content: 'Say hi' }],
      tools: [{ name: 'show_hint', description: 'hint', parameters: { type: 'object' } }],
    };
    const res = await stack.http.post('/internal/ai/chat').set('X-Internal-Secret', TEST_INTERNAL_SECRET).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      text: 'Hi there',
      toolCalls: [{ id: 'call_0', name: 'show_hint', arguments: '{"text":"x"}' }],
      model: 'fake-model',
      finishReason: 'tool_calls',
    });
    expect((await stack.http.post('/internal/ai/chat').send(body)).status).toBe(403);
    const bad = await stack.http
      .post('/internal/ai/chat')
      .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
      .send({ messages: [{ role: 'robot', content: 1 }] });
    expect(bad.status).toBe(400);
    ai.failWith = 500;
    const down = await stack.http.post('/internal/ai/chat').set('X-Internal-Secret', TEST_INTERNAL_SECRET).send(body);
    ai.failWith = null;
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('ai_unavailable');
  });
});

describe('VR assistant without an AI key', () => {
  it('answers assistant_disabled and closes; rooms still work', async () => {
    const stack = await startStack({ workers: false });
    try {
      const org = await vrOrg(stack, 1);
      const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
      expect(await socket.next('error')).toMatchObject({ type: 'error', code: 'assistant_disabled' });
      expect(await socket.closed).toEqual({ code: 4503, reason: 'assistant_disabled' });
      expect((await stack.http.get('/runtime/rooms').set(org.members[0].auth)).status).toBe(200);
      const internal = await stack.http
        .post('/internal/ai/chat')
        .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
        .send({ messages: [{ role: 'user', content: 'x' }] });
      expect(internal.status).toBe(503);
      expect(internal.body.code).toBe('ai_not_configured');
    } finally {
      await stack.close();
    }
  });
});
