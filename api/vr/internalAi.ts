import type { ModuleMount } from '../http/mount';
import { AiUnavailableError } from '../../lib/ai';
import { unavailable } from '../../lib/errors';
import { AiChatBody } from './dtos';
import { AiChatView } from './reportViews';
import { postInternalAiChat } from './internalAi.docs';

/** The internal AI layer over HTTP (X-Internal-Secret): the same inference the VR assistant uses in-process. */
export function internalAiRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Internal AI');

  r.post(
    '/internal/ai/chat',
    {
      access: 'internal',
      summary: 'Chat completion through the AI layer',
      description: postInternalAiChat,
      body: AiChatBody,
      bodyLimit: '1mb',
      response: AiChatView,
      errors: { 503: '`ai_not_configured`, `ai_unavailable`' },
    },
    async ({ body, req }) => {
      if (!services.ai) throw unavailable('ai_not_configured', 'The AI layer is not configured (OPENAI_API_KEY)');
      const abort = new AbortController();
      req.on('close', () => abort.abort());
      try {
        return (await services.ai.chat({
          messages: body.messages,
          tools: body.tools,
          maxTokens: body.maxTokens,
          signal: abort.signal,
        })) satisfies AiChatView;
      } catch (err) {
        if (err instanceof AiUnavailableError)
          throw unavailable('ai_unavailable', 'The AI provider failed; retry shortly');
        throw err;
      }
    },
  );
}
