import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { aiOf, complete } from './ai';
import { requireVisible } from './lookup';
import { findArticle } from './store/articles';

export type AssistOperation = 'suggest' | 'rewrite' | 'summarize';

const SYSTEM: Record<AssistOperation, string> = {
  suggest:
    'You help write knowledge-base articles. Continue the draft with the next paragraph or section, in the same language and tone. Answer with the new text only.',
  rewrite:
    'You rewrite knowledge-base text as instructed (default: clearer and more concise), keeping its meaning, language and Markdown. Answer with the rewritten text only.',
  summarize: 'Summarize the article in a few sentences, in its language. Answer with the summary only.',
};

const MAX_INPUT = 12_000;

/**
 * suggest / rewrite / summarize over given text or an article of the organisation (tenant-filtered em) the caller
 * may read (`publishedOnly`: an unpublished one is a 404, as when reading it).
 */
export async function assist(
  services: Services,
  em: Em,
  props: {
    operation: AssistOperation;
    text?: string;
    articleId?: string;
    instruction?: string;
    publishedOnly: boolean;
  },
): Promise<string> {
  const ai = aiOf(services);
  let text = props.text ?? '';
  if (props.articleId) {
    const article = await findArticle(em, props.articleId, { withBody: true });
    requireVisible(article, props.publishedOnly);
    text = `# ${article.title}\n\n${article.kind === 'developer' ? (article.contentMarkdown ?? '') : article.bodyText}`;
  }
  const user =
    props.operation === 'rewrite'
      ? `Instruction: ${props.instruction ?? 'clearer and more concise'}\n\nText:\n${text.slice(0, MAX_INPUT)}`
      : text.slice(0, MAX_INPUT);
  return complete(ai, SYSTEM[props.operation], user, props.operation === 'summarize' ? 300 : 800);
}
