import { prose } from '../http/docs';

/** Long descriptions of the routes of internalAi.ts (the OpenAPI text). */

/** POST /internal/ai/chat */
export const postInternalAiChat = prose`
  For other services of the suite. Sends the messages (and optional function tools) to the configured OpenAI-compatible
  model and answers the complete text with the tool calls it made (arguments JSON-encoded). 503 \`ai_not_configured\`
  without OPENAI_API_KEY, 503 \`ai_unavailable\` when the provider fails.
`;
