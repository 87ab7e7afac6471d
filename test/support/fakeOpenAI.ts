import { createServer, type Server } from 'node:http';
import { once } from 'node:events';

/** What the fake model answers: text chunks, then optional tool calls (their arguments split in fragments). */
export interface FakeReply {
  chunks: string[];
  toolCalls?: { name: string; args: string }[];
}

/**
 * A local OpenAI-compatible server for POST /v1/chat/completions with stream: true. It streams SSE
 * `chat.completion.chunk` events the way OpenAI does: role, content deltas, tool-call deltas whose
 * arguments arrive in pieces, a finish_reason, then `data: [DONE]`. It records each request body.
 */
export interface FakeOpenAI {
  /** OPENAI_BASE_URL for the SDK. */
  baseUrl: string;
  requests: Record<string, unknown>[];
  reply: FakeReply;
  /** Answer this status instead of a stream (to test provider failures). */
  failWith: number | null;
  /** Milliseconds to wait before answering (to hold an inference open). */
  holdMs: number;
  close(): Promise<void>;
}

export async function startFakeOpenAI(reply: FakeReply = { chunks: ['Hello'] }): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    baseUrl: '',
    requests: [],
    reply,
    failWith: null,
    holdMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => setTimeout(() => answer(), fake.holdMs));
    const answer = () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      fake.requests.push(JSON.parse(raw) as Record<string, unknown>);
      if (fake.failWith) {
        res
          .writeHead(fake.failWith, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
      });
      const base = {
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model: 'fake-model',
      };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`,
        );
      const { chunks, toolCalls = [] } = fake.reply;
      chunk({ role: 'assistant', content: '' });
      for (const text of chunks) chunk({ content: text });
      toolCalls.forEach((call, index) => {
        const half = Math.ceil(call.args.length / 2);
        chunk({
          tool_calls: [
            {
              index,
              id: `call_${index}`,
              type: 'function',
              function: { name: call.name, arguments: call.args.slice(0, half) },
            },
          ],
        });
        chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(half) } }] });
      });
      chunk({}, toolCalls.length ? 'tool_calls' : 'stop');
      res.end('data: [DONE]\n\n');
    };
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  return fake;
}
