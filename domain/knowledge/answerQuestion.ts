import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { aiOf, complete } from './ai';
import { searchArticles, type SearchProps } from './searchArticles';
import { articleTexts } from './store/articles';

const SOURCES = 5;
const SOURCE_CHARS = 2_500;

export interface QaAnswer {
  answer: string;
  /** The articles given to the model, in the order of their [n] marks. */
  sources: { id: string; title: string; slug: string; spaceId: string }[];
}

/** Answers a question from the articles the search finds in `scope`, citing them; no article found, no model call (nor 503 without one). */
export async function answerQuestion(
  services: Services,
  em: Em,
  question: string,
  scope: Omit<SearchProps, 'q' | 'limit'>,
): Promise<QaAnswer> {
  // A question is matched by any of its words (web-search OR), ranked: an AND of every word rarely matches prose.
  const words = question.match(/[\p{L}\p{N}]+/gu) ?? [];
  const hits = words.length
    ? await searchArticles(services, { ...scope, q: words.slice(0, 30).join(' or '), limit: SOURCES })
    : [];
  if (!hits.length) return { answer: 'No article answers this question.', sources: [] };
  const ai = aiOf(services);
  const bodies = await articleTexts(
    em,
    hits.map((h) => h.id),
  );
  const text = new Map(bodies.map((b) => [b.id, b.bodyText]));
  const context = hits
    .map((h, i) => `[${i + 1}] ${h.title}\n${(text.get(h.id) ?? '').slice(0, SOURCE_CHARS)}`)
    .join('\n\n');
  const answer = await complete(
    ai,
    'Answer the question using only the numbered articles below. Cite the articles you use as [1], [2] ... If they do not contain the answer, say so. Answer in the language of the question.',
    `Articles:\n${context}\n\nQuestion: ${question.slice(0, 1000)}`,
    600,
  );
  return { answer, sources: hits.map((h) => ({ id: h.id, title: h.title, slug: h.slug, spaceId: h.spaceId })) };
}
