import { AiUnavailableError, type AiClient, type AiMessage, type AiTool, type AiToolCall } from '../../lib/ai';
import type { Logger } from '../../lib/logger';
import { inputProblems } from '../../lib/json';
import { isDependencyDown } from '../../lib/dependencies';

/**
 * The scene-aware assistant of a headset, one conversation per WebSocket. Headset -> server messages:
 *   { type: 'user_message', text, context }   a question; answered
 *   { type: 'event', name, detail, context }  a scene event; recorded, and `step_changed` is answered too
 * Server -> headset: { type: 'delta', text } chunks, then { type: 'action', name, args } per tool call (args
 * a JSON-encoded object), then { type: 'message', text } which always ends a turn; or { type: 'error', code,
 * message } (`rate_limited` adds retryAfter, in seconds). `context` is the latest scene snapshot, given to the
 * model in the system prompt.
 */
export type AssistantInput =
  | { type: 'user_message'; text: string; context?: unknown }
  | { type: 'event'; name: string; detail: string; context?: unknown };

export type AssistantOutput =
  | { type: 'delta'; text: string }
  | { type: 'message'; text: string }
  | { type: 'action'; name: string; args: string }
  | { type: 'error'; code: string; message: string; retryAfter?: number };

/** The verdict of the caller's question budget on one more inference. */
export type AssistantAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };
/**
 * Counts one inference against the caller's budget (api/vr/assistant.ts: per user, in Redis, shared by every
 * dyno) and tells whether it may run. Throws when it cannot tell (Redis unavailable).
 */
export type AssistantBudget = () => Promise<AssistantAllowance>;

/** A message the headset sent that cannot be used; the connection stays up. */
export class AssistantInputError extends Error {
  constructor(
    readonly code: 'malformed_json' | 'invalid_message' | 'unknown_type',
    message: string,
  ) {
    super(message);
  }
}

/** The tools the model may call; each needs a matching handler in the headset application. */
export const assistantTools: AiTool[] = [
  {
    name: 'highlight_object',
    description:
      'Highlight an object of the scene so the trainee finds it. Use the exact object name from the scene context.',
    parameters: {
      type: 'object',
      properties: { objectName: { type: 'string', description: 'Name of the object in the scene context' } },
      required: ['objectName'],
      additionalProperties: false,
    },
  },
  {
    name: 'show_hint',
    description: 'Show a short hint panel in the headset (one or two sentences).',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The hint' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
];

const requiredArg: Record<string, string> = { highlight_object: 'objectName', show_hint: 'text' };

export const MAX_HISTORY = 20;
const MAX_TEXT = 4000;
const MAX_CONTEXT_CHARS = 8000;
/** Events that ask for an answer; any other event is only remembered. */
const ANSWERED_EVENTS = new Set(['step_changed']);

const SYSTEM_PROMPT = `You are the training assistant inside a virtual-reality simulation. The trainee wears a headset:
answer in one to three short sentences, concrete and encouraging. Guide rather than do the task for them.
Call highlight_object to point at an object (use its exact name from the scene) and show_hint for a short hint.
When a scene event arrives (for instance step_changed), briefly orient the trainee for what comes next.`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses and checks one frame from the headset (throws AssistantInputError). */
export function parseAssistantInput(raw: string): AssistantInput {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AssistantInputError('malformed_json', 'The message is not valid JSON');
  }
  if (!isObject(value)) throw new AssistantInputError('invalid_message', 'A message is a JSON object with a type');
  // The rule every HTTP body follows (api/http/validate.ts): no text PostgreSQL or the model's JSON could not carry.
  const [problem] = inputProblems(value);
  if (problem) throw new AssistantInputError('invalid_message', `${problem.field || 'message'}: ${problem.message}`);
  const { type, context } = value;
  if (context !== undefined && !isObject(context))
    throw new AssistantInputError('invalid_message', 'context must be a JSON object (the scene snapshot)');
  const text = (field: string, max: number, required: boolean): string => {
    const v = value[field];
    if (v === undefined && !required) return '';
    if (typeof v !== 'string' || (required && !v.trim()) || v.length > max) {
      throw new AssistantInputError(
        'invalid_message',
        `${field} must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters`,
      );
    }
    return v;
  };
  if (type === 'user_message') return { type, text: text('text', MAX_TEXT, true), context };
  if (type === 'event')
    return { type, name: text('name', 100, true), detail: text('detail', MAX_TEXT, false), context };
  throw new AssistantInputError('unknown_type', 'type must be user_message or event');
}

export class AssistantConversation {
  private history: AiMessage[] = [];
  private context: unknown = null;
  private busy = false;

  constructor(
    private readonly ai: AiClient,
    private readonly send: (out: AssistantOutput) => void,
    private readonly logger: Logger,
    /** Asked before every inference; none: no limit. */
    private readonly budget?: AssistantBudget,
  ) {}

  /**
   * Handles one message. One inference runs at a time (a question during one gets `assistant_busy`, without
   * spending the budget); each one is first counted against the caller's budget: over it the question gets
   * `rate_limited` (with retryAfter) and no model call is made, `dependency_unavailable` when the budget cannot
   * be read. Either way the connection stays up.
   */
  async handle(input: AssistantInput, signal: AbortSignal): Promise<void> {
    if (input.context !== undefined) this.context = input.context;
    if (input.type === 'user_message') {
      if (this.busy)
        return this.send({
          type: 'error',
          code: 'assistant_busy',
          message: 'An answer is still being written; send the question again after it',
        });
      // A refused question is forgotten: the next one must not be answered along with it.
      return this.turn({ role: 'user', content: input.text }, false, signal);
    }
    const event: AiMessage = {
      role: 'user',
      content: `(scene event) ${input.name}${input.detail ? `: ${input.detail}` : ''}`,
    };
    if (ANSWERED_EVENTS.has(input.name) && !this.busy) return this.turn(event, true, signal);
    this.remember(event);
  }

  /**
   * One turn: the inference is reserved at once (busy, so a frame arriving meanwhile is refused), remembered in
   * order, admitted by the budget, then answered. `keepIfRefused`: the message stays in the history when it is
   * not answered (a scene event is still a fact of the scene).
   */
  private async turn(message: AiMessage, keepIfRefused: boolean, signal: AbortSignal): Promise<void> {
    this.busy = true;
    this.remember(message);
    let admitted = false;
    try {
      const refusal = await this.admission();
      if (signal.aborted) return;
      if (refusal) return this.send(refusal);
      admitted = true;
      await this.answer(signal);
    } finally {
      if (!admitted && !keepIfRefused) this.history = this.history.filter((m) => m !== message);
      this.busy = false;
    }
  }

  /** Null when the budget admits one more inference; otherwise the error message that answers instead. */
  private async admission(): Promise<AssistantOutput | null> {
    if (!this.budget) return null;
    try {
      const verdict = await this.budget();
      if (verdict.allowed) return null;
      const retryAfter = Math.max(1, Math.ceil(verdict.retryAfterSeconds));
      return {
        type: 'error',
        code: 'rate_limited',
        message: `Too many questions; ask again in ${retryAfter} s`,
        retryAfter,
      };
    } catch (err) {
      if (!isDependencyDown(err)) throw err;
      this.logger.warn({ err: (err as Error).message }, 'assistant question budget unavailable');
      return {
        type: 'error',
        code: 'dependency_unavailable',
        message: 'The assistant cannot take questions right now; try again shortly',
      };
    }
  }

  private async answer(signal: AbortSignal): Promise<void> {
    try {
      const result = await this.ai.chat({
        messages: [{ role: 'system', content: this.systemPrompt() }, ...this.history],
        tools: assistantTools,
        maxTokens: 400,
        signal,
        onDelta: (text) => this.send({ type: 'delta', text }),
      });
      this.remember({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
      for (const call of result.toolCalls)
        this.remember({ role: 'tool', toolCallId: call.id, content: this.act(call) });
      this.send({ type: 'message', text: result.text });
    } catch (err) {
      if (signal.aborted) return;
      if (!(err instanceof AiUnavailableError)) throw err;
      this.logger.warn({ err: err.message, status: err.status }, 'assistant inference failed');
      this.send({
        type: 'error',
        code: 'assistant_unavailable',
        message: 'The assistant could not answer; try again shortly',
      });
    }
  }

  /** Sends a valid tool call to the headset as an action; returns the tool result kept in history. */
  private act(call: AiToolCall): string {
    const needed = requiredArg[call.name];
    let args: unknown;
    try {
      args = JSON.parse(call.arguments || '{}');
    } catch {
      args = null;
    }
    if (!needed || !isObject(args) || typeof args[needed] !== 'string') {
      this.logger.warn({ tool: call.name }, 'assistant tool call ignored: unknown tool or invalid arguments');
      return JSON.stringify({ ok: false, error: 'unknown tool or invalid arguments' });
    }
    this.send({ type: 'action', name: call.name, args: JSON.stringify(args) });
    return JSON.stringify({ ok: true });
  }

  private systemPrompt(): string {
    if (this.context === null) return SYSTEM_PROMPT;
    const scene = JSON.stringify(this.context);
    return `${SYSTEM_PROMPT}\n\nCurrent scene (JSON${scene.length > MAX_CONTEXT_CHARS ? ', truncated' : ''}):\n${scene.slice(0, MAX_CONTEXT_CHARS)}`;
  }

  /** Keeps the last MAX_HISTORY messages, starting at a user message (never with an orphan tool result). */
  private remember(message: AiMessage): void {
    this.history.push(message);
    if (this.history.length <= MAX_HISTORY) return;
    let start = this.history.length - MAX_HISTORY;
    while (start < this.history.length && this.history[start].role !== 'user') start++;
    this.history = this.history.slice(start);
  }
}
