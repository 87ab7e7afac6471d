import type { SocketDoc } from '../asyncapi';
import { assistantTools } from '../../domain/vr/assistant';

const scene = {
  type: 'object',
  description:
    'JSON snapshot of the scene (objects, current step, latest events); the latest one is given to the model',
  examples: [
    {
      objects: ['red valve', 'extinguisher'],
      currentStep: 'close-valve',
      latestEvents: ['object_grabbed:extinguisher'],
    },
  ],
};
const text = (description: string, maxLength?: number) => ({
  type: 'string',
  description,
  ...(maxLength ? { maxLength } : {}),
});
const message = (type: string, properties: Record<string, object>, required: string[], closed: boolean) => ({
  type: 'object',
  properties: { type: { type: 'string', const: type }, ...properties },
  required: ['type', ...required],
  ...(closed ? { additionalProperties: false } : {}),
});

/** The messages of WebSocket /assistant, named as the spec names them (api/vr/assistant.ts handles them). */
export const assistantChannel: SocketDoc = {
  summary: 'The scene-aware AI assistant of a headset',
  description: `One conversation per connection. Authenticate the upgrade with the access token (Authorization: Bearer, or ?token=);
the organisation needs the vr module and the caller vr.play. Frames are JSON text. A question (user_message) or a step_changed
event is answered with delta chunks, then one action per tool call, then the complete message, which always ends a turn.
A bad frame gets an error message and the connection stays up. One answer is written at a time per connection: a question
sent during one gets error assistant_busy. Each user may put ASSISTANT_QUESTIONS_PER_MINUTE questions (answered step_changed
events included; 20 by default) a minute to the assistant, counted across all their connections and every server; over it
the question gets error rate_limited with retryAfter (seconds until the next one is accepted) and is not answered nor
remembered; error dependency_unavailable when the limit cannot be checked. Neither closes the connection. The server pings every 25 s.
The connection lives no longer than the access token it was opened with: at its expiry the server closes it (4401 token_expired);
refresh the token (POST /auth/refresh) and reconnect with the new one. Access is re-checked before every frame is handled.`,
  // api/vr/assistant.ts closes with these: CLOSE_ASSISTANT_DISABLED after an error message of the same code, 1011 when its
  // admission check fails. A caller without vr.play gets the router's 4403 permission_denied (SOCKET_CLOSE.permissionDenied,
  // published from the route's permission): at open after an error message of that code, later when a role change removes it.
  closes: [
    { code: 4503, reason: 'assistant_disabled', description: 'The assistant is disabled: no AI key is configured' },
    { code: 1011, reason: 'unavailable', description: 'The admission check failed: reconnect later' },
  ],
  receive: {
    user_message: {
      summary: 'A question of the trainee; answered',
      payload: message(
        'user_message',
        { text: { ...text('The question', 4000), minLength: 1 }, context: scene },
        ['text'],
        false,
      ),
    },
    event: {
      summary: 'A scene event; remembered, and answered when its name is step_changed',
      payload: message(
        'event',
        {
          name: { ...text('Event name, e.g. step_changed, object_grabbed', 100), minLength: 1 },
          detail: text('Free text detail, e.g. the new step', 4000),
          context: scene,
        },
        ['name'],
        false,
      ),
    },
  },
  send: {
    delta: {
      summary: 'A partial chunk of the answer, in order',
      payload: message('delta', { text: text('The next chunk') }, ['text'], true),
    },
    message: {
      summary: 'The complete answer; ends the turn',
      payload: message('message', { text: text('The whole answer (the deltas joined)') }, ['text'], true),
    },
    action: {
      summary: 'A scene change the headset application performs (one per tool call of the model)',
      description: assistantTools
        .map((t) => `\`${t.name}\`: ${t.description} Arguments: ${JSON.stringify(t.parameters.properties)}`)
        .join('\n\n'),
      payload: message(
        'action',
        {
          name: { type: 'string', enum: assistantTools.map((t) => t.name) },
          args: text('A JSON-encoded object: the arguments of the action'),
        },
        ['name', 'args'],
        true,
      ),
    },
    error: {
      summary:
        'The frame could not be used, or the assistant could not answer; the connection stays up unless a close follows',
      description:
        '`assistant_busy`: an answer is being written, send the question after it. `rate_limited`: the user asked too many questions this minute; `retryAfter` tells when to ask again. ' +
        '`dependency_unavailable`: the question limit could not be checked, retry shortly. `assistant_unavailable`: the model failed. None of these ends the turn of another question.',
      payload: message(
        'error',
        {
          code: {
            type: 'string',
            enum: [
              'malformed_json',
              'invalid_message',
              'unknown_type',
              'assistant_busy',
              'rate_limited',
              'dependency_unavailable',
              'assistant_unavailable',
              'assistant_disabled',
              'permission_denied',
              'internal_error',
            ],
          },
          message: text('What went wrong, for people'),
          retryAfter: {
            type: 'integer',
            minimum: 1,
            description: 'With rate_limited only: seconds until the next question is accepted',
          },
        },
        ['code', 'message'],
        true,
      ),
    },
  },
};
