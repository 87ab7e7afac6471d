import { AiUnavailableError, type AiClient } from '../../lib/ai';
import { unavailable } from '../../lib/errors';
import type { Services } from '../services';

/**
 * The AI operations of the knowledge service, through the suite's AI layer (lib/ai.ts): suggest (continue a
 * draft), rewrite (per an instruction), summarize, and qa, which answers only from retrieved articles (the
 * search of the caller's scope: the organisation for members, published articles of the space publicly) and
 * cites them as [1], [2] ... No AI key: 503 `ai_not_configured`; the provider failing: 503 `ai_unavailable`.
 *
 * This file: the client of the services, and one completion (the errors as 503s).
 */
export function aiOf(services: Services): AiClient {
  if (!services.ai) throw unavailable('ai_not_configured', 'No AI provider is configured (OPENAI_API_KEY)');
  return services.ai;
}

export async function complete(ai: AiClient, system: string, user: string, maxTokens: number): Promise<string> {
  try {
    return (
      await ai.chat({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        maxTokens,
      })
    ).text.trim();
  } catch (err) {
    if (err instanceof AiUnavailableError)
      throw unavailable('ai_unavailable', 'The AI provider did not answer; retry later');
    throw err;
  }
}
