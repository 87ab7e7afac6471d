import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Config } from './config';
import { onFirstUse } from './lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openAiSdk = onFirstUse(() => (require('openai') as typeof import('openai')).OpenAI);

/**
 * The internal AI layer: one chat-completion client for the whole suite (the VR assistant in-process,
 * other services through POST /internal/ai/chat). Provider-neutral shapes in, the OpenAI SDK underneath;
 * OPENAI_BASE_URL points it at any OpenAI-compatible server.
 */
export interface AiToolCall {
  id: string;
  name: string;
  /** JSON-encoded arguments, as the model produced them. */
  arguments: string;
}

export type AiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: AiToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface AiTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: AiMessage[];
  tools?: AiTool[];
  maxTokens?: number;
  /** Called with each chunk of text as it streams in. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

export interface ChatResult {
  text: string;
  toolCalls: AiToolCall[];
  model: string;
  finishReason: string | null;
}

/** The provider failed or could not be reached (after the SDK's own retry). */
export class AiUnavailableError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiUnavailableError';
  }
}

export class AiClient {
  /** The SDK client, built by the first call (lib/lazy.ts). */
  private readonly client = onFirstUse((): OpenAI => {
    const Sdk = openAiSdk();
    return new Sdk({
      apiKey: this.config.OPENAI_API_KEY,
      baseURL: this.config.OPENAI_BASE_URL || undefined,
      timeout: 30_000,
      maxRetries: 1,
    });
  });

  constructor(private readonly config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>) {}

  get model(): string {
    return this.config.OPENAI_MODEL;
  }

  /** Streams one completion; text chunks go to onDelta, tool calls are assembled from their fragments. */
  async chat(request: ChatRequest): Promise<ChatResult> {
    const calls = new Map<number, AiToolCall>();
    let text = '';
    let finishReason: string | null = null;
    try {
      const stream = await this.client().chat.completions.create(
        {
          model: this.config.OPENAI_MODEL,
          messages: request.messages.map(toOpenAi),
          ...(request.tools?.length ? { tools: request.tools.map(toTool) } : {}),
          // max_tokens rather than max_completion_tokens: what OpenAI-compatible servers (vLLM, Ollama...) understand.
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          stream: true,
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta?.content) {
          text += delta.content;
          request.onDelta?.(delta.content);
        }
        for (const fragment of delta?.tool_calls ?? []) {
          const call = calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
          if (fragment.id) call.id = fragment.id;
          if (fragment.function?.name) call.name += fragment.function.name;
          if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
          calls.set(fragment.index, call);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (err) {
      if (request.signal?.aborted) throw err;
      throw new AiUnavailableError(
        err instanceof Error ? err.message : String(err),
        err instanceof openAiSdk().APIError ? err.status : undefined,
      );
    }
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => call)
      .filter((c) => c.name);
    return { text, toolCalls, model: this.config.OPENAI_MODEL, finishReason };
  }
}

/** The AI layer, or null when no key is configured (the assistant is then disabled; nothing else is). */
export function createAi(config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>): AiClient | null {
  return config.OPENAI_API_KEY ? new AiClient(config) : null;
}

function toOpenAi(m: AiMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

const toTool = (t: AiTool): ChatCompletionTool => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.parameters },
});
