import { KnowledgeArticle } from '../../entities/knowledge/article';
import { AiUnavailableError, type AiClient } from '../../lib/ai';
import type { Em } from '../../lib/db';
import { unavailable } from '../../lib/errors';
import type { Services } from '../services';
import { findArticle, requireVisible } from './lookup';
import { searchArticles, type SearchProps } from './searchArticles';

/**
 * The AI operations of the knowledge service, through the suite's AI layer (lib/ai.ts): suggest (continue a
 * draft), rewrite (per an instruction), summarize, and qa, which answers only from retrieved articles (the
 * search of the caller's scope: the organisation for members, published articles of the space publicly) and
 * cites them as [1], [2] ... No AI key: 503 `ai_not_configured`; the provider failing: 503 `ai_unavailable`.
 */
export type AssistOperation = 'suggest' | 'rewrite' | 'summarize';

const SYSTEM: Record<AssistOperation, string> = {
  suggest: 'You help write knowledge-base articles. Continue the draft with the next paragraph or section, in the same language and tone. Answer with the new text only.',
  rewrite: 'You rewrite knowledge-base text as instructed (default: clearer and more concise), keeping its meaning, language and Markdown. Answer with the rewritten text only.',
  summarize: 'Summarize the article in a few sentences, in its language. Answer with the summary only.',
};

const MAX_INPUT = 12_000;
const SOURCES = 5;
const SOURCE_CHARS = 2_500;

export function aiOf(services: Services): AiClient {
  if (!services.ai) throw unavailable('ai_not_configured', 'No AI provider is configured (OPENAI_API_KEY)');
  return services.ai;
}

async function complete(ai: AiClient, system: string, user: string, maxTokens: number): Promise<string> {
  try {
    return (await ai.chat({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }], maxTokens })).text.trim();
  } catch (err) {
    if (err instanceof AiUnavailableError) throw unavailable('ai_unavailable', 'The AI provider did not answer; retry later');
    throw err;
  }
}

/**
 * suggest / rewrite / summarize over given text or an article of the organisation (tenant-filtered em) the caller
 * may read (`publishedOnly`: an unpublished one is a 404, as when reading it).
 */
export async function assist(services: Services, em: Em, props: { operation: AssistOperation; text?: string; articleId?: string; instruction?: string; publishedOnly: boolean }): Promise<string> {
  const ai = aiOf(services);
  let text = props.text ?? '';
  if (props.articleId) {
    const article = await findArticle(em, props.articleId, { withBody: true });
    requireVisible(article, props.publishedOnly);
    text = `# ${article.title}\n\n${article.kind === 'developer' ? (article.contentMarkdown ?? '') : article.bodyText}`;
  }
  const user = props.operation === 'rewrite' ? `Instruction: ${props.instruction ?? 'clearer and more concise'}\n\nText:\n${text.slice(0, MAX_INPUT)}` : text.slice(0, MAX_INPUT);
  return complete(ai, SYSTEM[props.operation], user, props.operation === 'summarize' ? 300 : 800);
}

export interface QaAnswer {
  answer: string;
  /** The articles given to the model, in the order of their [n] marks. */
  sources: { id: string; title: string; slug: string; spaceId: string }[];
}

/** Answers a question from the articles the search finds in `scope`, citing them; no article found, no model call (nor 503 without one). */
export async function answerQuestion(services: Services, em: Em, question: string, scope: Omit<SearchProps, 'q' | 'limit'>): Promise<QaAnswer> {
  // A question is matched by any of its words (web-search OR), ranked: an AND of every word rarely matches prose.
  const words = question.match(/[\p{L}\p{N}]+/gu) ?? [];
  const hits = words.length ? await searchArticles(services, { ...scope, q: words.slice(0, 30).join(' or '), limit: SOURCES }) : [];
  if (!hits.length) return { answer: 'No article answers this question.', sources: [] };
  const ai = aiOf(services);
  const bodies = await em.find(KnowledgeArticle, { id: { $in: hits.map((h) => h.id) } }, { filters: false, populate: ['bodyText'], fields: ['id', 'title', 'bodyText'] });
  const text = new Map(bodies.map((b) => [b.id, b.bodyText]));
  const context = hits.map((h, i) => `[${i + 1}] ${h.title}\n${(text.get(h.id) ?? '').slice(0, SOURCE_CHARS)}`).join('\n\n');
  const answer = await complete(
    ai,
    'Answer the question using only the numbered articles below. Cite the articles you use as [1], [2] ... If they do not contain the answer, say so. Answer in the language of the question.',
    `Articles:\n${context}\n\nQuestion: ${question.slice(0, 1000)}`,
    600,
  );
  return { answer, sources: hits.map((h) => ({ id: h.id, title: h.title, slug: h.slug, spaceId: h.spaceId })) };
}
