import { WebSocket, type RawData } from 'ws';
import type { RedisStore } from 'rate-limit-redis';
import type { ModuleMount } from '../http/mount';
import { assistantChannel } from './assistantChannel';
import type { AuthInfo } from '../http/auth';
import type { Services } from '../../domain/services';
import { SOCKET_CLOSE } from '../ws';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../lib/json';
import { rateLimitStore } from '../http/rateLimit';
import {
  AssistantConversation,
  AssistantInputError,
  parseAssistantInput,
  type AssistantBudget,
  type AssistantOutput,
} from '../../domain/vr/assistant';

/** The permission the caller needs, at open and as long as the socket is open (the router re-checks it). */
export const ASSISTANT_PERMISSION = 'vr.play';
/** Close codes: the headset should not reconnect on these. */
export const CLOSE_FORBIDDEN = SOCKET_CLOSE.permissionDenied.code;
export const CLOSE_ASSISTANT_DISABLED = 4503;
const PING_INTERVAL_MS = 25_000;
/** The window of ASSISTANT_QUESTIONS_PER_MINUTE. */
export const QUESTION_WINDOW_SECONDS = 60;
/** Names the per-user question counters in Redis: `<namespace>:rl:vr-assistant:<userId>` (as api/http/rateLimit.ts names its own). */
export const QUESTION_LIMITER = 'vr-assistant';

/**
 * WebSocket /assistant (token in ?token=, module vr, permission vr.play). Without an AI key the socket
 * answers { type: 'error', code: 'assistant_disabled' } and closes with 4503; rooms are unaffected. A bad
 * message (nesting deeper than MAX_JSON_DEPTH included, refused before parsing) gets { type: 'error', code,
 * message } and the connection stays up. Each user may have ASSISTANT_QUESTIONS_PER_MINUTE inferences (questions and
 * answered step_changed events) a minute, across sockets and dynos; over it the question gets { type: 'error',
 * code: 'rate_limited', retryAfter } and no model call is made. Pings every 25 s keep
 * proxies from closing an idle socket and drop dead ones.
 */
export function assistantSocket({ sockets, services }: ModuleMount): void {
  const budgetOf = questionBudgets(services);
  sockets.add('/assistant', {
    module: 'vr',
    permission: ASSISTANT_PERMISSION,
    maxPayload: 256 * 1024,
    doc: assistantChannel,
    handle: (socket, auth) => openAssistant(services, socket, auth, budgetOf(auth.userId)),
  });
}

/**
 * The per-user question budget: a fixed window counted in Redis by rate-limit-redis, the store of the HTTP
 * limiters (api/http/rateLimit.ts), so every dyno shares it. A refused question counts too (as a refused
 * request does over HTTP), which does not move the end of the window. Redis not answering makes the budget
 * throw (the conversation answers dependency_unavailable); REDIS_TIMEOUT_MS bounds the wait.
 */
function questionBudgets(services: Services): (userId: string) => AssistantBudget {
  const limit = services.config.ASSISTANT_QUESTIONS_PER_MINUTE;
  const windowMs = QUESTION_WINDOW_SECONDS * 1000;
  const store = rateLimitStore(services, QUESTION_LIMITER);
  // The sender answers SCRIPT LOAD itself: this sets the window and needs no Redis.
  const ready = store.init({ windowMs } as Parameters<RedisStore['init']>[0]);
  ready.catch(() => undefined); // awaited (and its error reported) by the first question
  return (userId) => async () => {
    await ready;
    const { totalHits, resetTime } = await store.increment(userId);
    if (totalHits <= limit) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: resetTime ? (resetTime.getTime() - Date.now()) / 1000 : QUESTION_WINDOW_SECONDS,
    };
  };
}

function openAssistant(services: Services, socket: WebSocket, auth: AuthInfo, budget: AssistantBudget): void {
  const logger = services.logger.child({ ws: 'assistant', userId: auth.userId });
  const send = (out: AssistantOutput) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(out));
  };
  const abort = new AbortController();
  let alive = true;
  const pinger = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, PING_INTERVAL_MS);
  socket.on('pong', () => (alive = true));
  socket.on('error', (err) => logger.debug({ err: err.message }, 'assistant socket error'));
  socket.on('close', () => {
    clearInterval(pinger);
    abort.abort();
  });

  // Listen at once (frames may arrive while the checks below run); handle them once admitted.
  const ready = refusalOf(services, auth).then(
    (refusal) => {
      if (!refusal) return new AssistantConversation(services.ai!, send, logger, budget);
      send({ type: 'error', code: refusal.code, message: refusal.message });
      socket.close(refusal.close, refusal.code);
      return null;
    },
    (err: unknown) => {
      logger.error({ err }, 'assistant admission failed');
      socket.close(1011, 'unavailable');
      return null;
    },
  );

  socket.on('message', (data: RawData, isBinary: boolean) => {
    void ready.then(async (conversation) => {
      if (!conversation) return;
      try {
        if (isBinary) throw new AssistantInputError('invalid_message', 'Messages are JSON text frames');
        const bytes = rawBytes(data);
        if (nestsDeeperThan(bytes))
          throw new AssistantInputError(
            'invalid_message',
            `JSON may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`,
          );
        await conversation.handle(parseAssistantInput(bytes.toString('utf8')), abort.signal);
      } catch (err) {
        if (err instanceof AssistantInputError) return send({ type: 'error', code: err.code, message: err.message });
        logger.error({ err }, 'assistant message failed');
        send({ type: 'error', code: 'internal_error', message: 'The message could not be handled' });
      }
    });
  });
}

/** Why the socket is refused, or null: the caller needs vr.play, and the AI layer must be configured. */
async function refusalOf(
  services: Services,
  auth: AuthInfo,
): Promise<{ code: string; message: string; close: number } | null> {
  const permissions = await services.permissions.of(auth.tenantId, auth.userId);
  if (!permissions.has(ASSISTANT_PERMISSION))
    return {
      code: 'permission_denied',
      message: `The assistant needs the permission ${ASSISTANT_PERMISSION}`,
      close: CLOSE_FORBIDDEN,
    };
  if (!services.ai)
    return {
      code: 'assistant_disabled',
      message: 'The assistant is disabled: no AI key is configured',
      close: CLOSE_ASSISTANT_DISABLED,
    };
  return null;
}

const rawBytes = (data: RawData): Buffer =>
  Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
