import { WebSocket } from 'ws';
import { QUESTION_LIMITER, QUESTION_WINDOW_SECONDS } from '../../api/vr/assistant';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import type { Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { openSocket, vrOrg, type TestSocket } from '../support/vr';
import { eventually } from '../support/wait';

const LIMIT = 3;

/**
 * The question budget of WebSocket /assistant: ASSISTANT_QUESTIONS_PER_MINUTE per user, counted in Redis and so
 * shared by every socket and dyno; a refused question gets error rate_limited (retryAfter), reaches no model and
 * leaves the socket open.
 */
describe('VR assistant question limits', () => {
  let stack: TestStack;
  let other: TestStack;
  let ai: FakeOpenAI;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Fine.'] });
    stack = await startStack({
      workers: false,
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl, ASSISTANT_QUESTIONS_PER_MINUTE: String(LIMIT) },
    });
    other = await startStack({ sharing: stack, workers: false });
  });
  afterAll(async () => {
    await other.close();
    await stack.close();
    await ai.close();
  });

  const counterKey = (account: Account) => stack.services.key('rl', QUESTION_LIMITER, account.user.id);
  const messages = (request: unknown) => (request as { messages: { role: string; content: string }[] }).messages;

  /** Asks and waits for the n-th complete answer on this socket. */
  async function ask(socket: TestSocket, text: string, n: number): Promise<void> {
    socket.send({ type: 'user_message', text });
    expect(await socket.next('message', n)).toEqual({ type: 'message', text: 'Fine.' });
  }

  it('refuses questions over the limit without calling the model, keeps the socket, and answers again after the window', async () => {
    const org = await vrOrg(stack, 2);
    const [member, colleague] = org.members;
    const socket = await openSocket(stack, '/assistant', member.tokens.accessToken);
    try {
      for (let i = 0; i < LIMIT; i++) await ask(socket, `Question ${i}`, i);
      const before = ai.requests.length;
      socket.send({ type: 'user_message', text: 'One too many' });
      const refused = await socket.next('error');
      expect(refused).toMatchObject({ type: 'error', code: 'rate_limited' });
      expect(refused.retryAfter).toEqual(expect.any(Number));
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfter).toBeLessThanOrEqual(QUESTION_WINDOW_SECONDS);
      // An answered scene event counts too.
      socket.send({ type: 'event', name: 'step_changed', detail: 'open-door' });
      expect(await socket.next('error', 1)).toMatchObject({ code: 'rate_limited' });
      expect(ai.requests.length).toBe(before);
      expect(socket.received.filter((m) => m.type === 'message')).toHaveLength(LIMIT);
      expect(socket.ws.readyState).toBe(WebSocket.OPEN);

      // Per user: a colleague of the same organisation is unaffected.
      const theirs = await openSocket(stack, '/assistant', colleague.tokens.accessToken);
      try {
        await ask(theirs, 'My turn?', 0);
      } finally {
        theirs.close();
      }
      // Observed after the colleague's answer: neither refused frame reached the model meanwhile.
      expect(ai.requests.length).toBe(before + 1);

      // The window ends (shortened here rather than waited for): the same socket is answered again.
      expect(await stack.services.redis.pexpire(counterKey(member), 50)).toBe(1);
      await eventually(async () => (await stack.services.redis.exists(counterKey(member))) === 0, {
        what: 'the question window to end',
      });
      await ask(socket, 'And now?', LIMIT);
      // The refused question was not remembered (the next one is not answered along with it); the scene event was.
      const history = messages(ai.requests.at(-1)).map((m) => m.content);
      expect(history).not.toContain('One too many');
      expect(history.slice(-2)).toEqual(['(scene event) step_changed: open-door', 'And now?']);
    } finally {
      socket.close();
    }
  });

  it('counts a user across sockets and dynos', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    const first = await openSocket(stack, '/assistant', member.tokens.accessToken);
    const second = await openSocket(other, '/assistant', member.tokens.accessToken);
    try {
      await ask(first, 'One', 0);
      await ask(second, 'Two', 0);
      await ask(first, 'Three', 1);
      const before = ai.requests.length;
      second.send({ type: 'user_message', text: 'Four' });
      expect(await second.next('error')).toMatchObject({ code: 'rate_limited' });
      first.send({ type: 'user_message', text: 'Five' });
      expect(await first.next('error')).toMatchObject({ code: 'rate_limited' });
      expect(ai.requests.length).toBe(before);
      expect([first.ws.readyState, second.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
    } finally {
      first.close();
      second.close();
    }
  });

  it('refuses a question during an answer without spending the budget', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
    try {
      ai.holdMs = 400;
      socket.send({ type: 'user_message', text: 'First' });
      for (let i = 0; i < 5; i++) socket.send({ type: 'user_message', text: `Meanwhile ${i}` });
      await socket.next('message');
      expect(socket.received.filter((m) => m.type === 'error').map((m) => m.code)).toEqual(
        Array(5).fill('assistant_busy'),
      );
      ai.holdMs = 0;
      expect(await stack.services.redis.get(counterKey(org.members[0]))).toBe('1');
      await ask(socket, 'Second', 1);
      await ask(socket, 'Third', 2);
    } finally {
      ai.holdMs = 0;
      socket.close();
    }
  });

  it('answers dependency_unavailable when the limit cannot be checked, and keeps the socket', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await openSocket(stack, '/assistant', org.members[0].tokens.accessToken);
    const redis = stack.services.redis;
    const call = redis.call.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    // Only the limiter's counter fails (as ioredis does without a connection); the router's own checks still pass.
    const spy = jest
      .spyOn(redis, 'call')
      .mockImplementation(((...args: unknown[]) =>
        String(args[0]).toUpperCase() === 'EVALSHA' && String(args[3]).includes(`:rl:${QUESTION_LIMITER}:`)
          ? Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false"))
          : call(...args)) as typeof redis.call);
    try {
      const before = ai.requests.length;
      socket.send({ type: 'user_message', text: 'Anyone?' });
      expect(await socket.next('error')).toMatchObject({ code: 'dependency_unavailable' });
      expect(ai.requests.length).toBe(before);
      expect(socket.ws.readyState).toBe(WebSocket.OPEN);
      spy.mockRestore();
      await ask(socket, 'Back?', 0);
      expect(messages(ai.requests.at(-1)).map((m) => m.content)).not.toContain('Anyone?');
    } finally {
      spy.mockRestore();
      socket.close();
    }
  });
});
