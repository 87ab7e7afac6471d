type Schema = Record<string, unknown>;

/** One message of a WebSocket endpoint: a JSON text frame whose payload the schema describes. */
export interface MessageDoc {
  summary: string;
  description?: string;
  /** JSON Schema of the frame (an object with a `type` member naming the message). */
  payload: Schema;
}

/** A way the server closes a socket: the close code and the reason sent with it (a problem code, or empty). */
export interface CloseDoc {
  code: number;
  reason: string;
  description: string;
}

/** A way the server refuses an upgrade: the HTTP status and the problem code of its application/problem+json body. */
export interface RefusalDoc {
  status: number;
  code: string;
  description: string;
}

/** What a WebSocket endpoint exchanges, declared beside it (SocketRouter.add) and published in /asyncapi.json. */
export interface SocketDoc {
  summary: string;
  description?: string;
  /** Messages the client sends, by the name the spec gives them. */
  receive: Record<string, MessageDoc>;
  /** Messages the server sends, by name. */
  send: Record<string, MessageDoc>;
  /** The endpoint's own closes; those of every endpoint come from the router (api/ws.ts SOCKET_CLOSE). */
  closes?: CloseDoc[];
}

/**
 * An endpoint as published: its doc, its frame bound, every close it may make (the router's and its own), every
 * refusal of its upgrade, and how many sockets a user and a client address may hold at once (all endpoints together).
 */
export type PublishedSocket = SocketDoc & {
  maxFrameBytes: number;
  closes: CloseDoc[];
  refusals: RefusalDoc[];
  limits: { perUser: number; perAddress: number };
};

const closeLine = (c: CloseDoc) => `- ${c.code}${c.reason ? ` \`${c.reason}\`` : ''}: ${c.description}`;
const refusalLine = (r: RefusalDoc) => `- ${r.status} \`${r.code}\`: ${r.description}`;

const channelId = (path: string) => path.replace(/^\//, '').replace(/[^\w.-]+/g, '_') || 'root';

/**
 * The AsyncAPI 3 document of the WebSocket endpoints (the HTTP routes are in /openapi.json). Each endpoint is a
 * channel whose address is its path, with one `receive` operation (what clients send) and one `send`
 * operation (what the server sends). AsyncAPI has no field for WebSocket close codes nor for the HTTP answers
 * refusing an upgrade: they are listed in the channel's description and, for code generators, in its
 * `x-close-codes` and `x-upgrade-refusals` (with `x-socket-limits`, the numbers behind too_many_sockets).
 */
export function asyncApiDocument(
  sockets: Iterable<[string, PublishedSocket]>,
  info: { title: string; version: string; description: string },
  serverUrl: string,
): Schema {
  const url = new URL(serverUrl);
  const channels: Record<string, Schema> = {};
  const operations: Record<string, Schema> = {};
  for (const [path, doc] of sockets) {
    const id = channelId(path);
    const messages = (named: Record<string, MessageDoc>) =>
      Object.fromEntries(
        Object.entries(named).map(([name, m]) => [
          name,
          {
            name,
            title: name,
            summary: m.summary,
            ...(m.description ? { description: m.description } : {}),
            contentType: 'application/json',
            payload: m.payload,
          },
        ]),
      );
    channels[id] = {
      address: path,
      title: path,
      summary: doc.summary,
      description: [
        `${doc.description ? `${doc.description}\n\n` : ''}Frames may be ${doc.maxFrameBytes} bytes at most. The server closes the connection with (code, reason):\n${doc.closes.map(closeLine).join('\n')}`,
        `A user may hold ${doc.limits.perUser} sockets at once and a client address ${doc.limits.perAddress}, on every endpoint and server together. Instead of 101 Switching Protocols the upgrade may be answered with an application/problem+json document (status, code):\n${doc.refusals.map(refusalLine).join('\n')}`,
      ].join('\n\n'),
      'x-max-frame-bytes': doc.maxFrameBytes,
      'x-close-codes': doc.closes,
      'x-upgrade-refusals': doc.refusals,
      'x-socket-limits': doc.limits,
      messages: { ...messages(doc.receive), ...messages(doc.send) },
      bindings: {
        ws: {
          method: 'GET',
          query: {
            type: 'object',
            properties: {
              token: {
                type: 'string',
                description: 'The access token, when the client cannot send an Authorization header',
              },
            },
          },
        },
      },
    };
    const refs = (named: Record<string, MessageDoc>) =>
      Object.keys(named).map((name) => ({ $ref: `#/channels/${id}/messages/${name}` }));
    operations[`${id}_receive`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${id}` },
      summary: `What a client sends on ${path}`,
      messages: refs(doc.receive),
    };
    operations[`${id}_send`] = {
      action: 'send',
      channel: { $ref: `#/channels/${id}` },
      summary: `What the server sends on ${path}`,
      messages: refs(doc.send),
    };
  }
  return {
    asyncapi: '3.1.0',
    info,
    defaultContentType: 'application/json',
    servers: {
      api: {
        host: url.host,
        protocol: url.protocol === 'https:' ? 'wss' : 'ws',
        description: 'The web dyno (the same host as the HTTP API)',
        security: [
          { $ref: '#/components/securitySchemes/bearerAuth' },
          { $ref: '#/components/securitySchemes/queryToken' },
        ],
      },
    },
    channels,
    operations,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from POST /auth/login in the Authorization header of the upgrade request',
        },
        queryToken: {
          type: 'httpApiKey',
          in: 'query',
          name: 'token',
          description: 'The same access token as the query parameter token (browsers cannot set headers on an upgrade)',
        },
      },
    },
  };
}
