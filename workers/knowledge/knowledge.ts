import { flushKnowledgeStats } from '../../domain/knowledge/flushStats';
import { mailArticleBatch } from '../../domain/knowledge/mailArticle';
import { knowledgeMailingQueue, knowledgeStatsQueue } from '../../queues/knowledge';
import { defineProcessor } from '../define';

/** Mails a published blog article to its space's confirmed subscribers, a batch per job. */
export const knowledgeMailingProcessor = defineProcessor(knowledgeMailingQueue, {
  async perform(payload, { services }) {
    return { mailed: await mailArticleBatch(services, payload) };
  },
});

/** Moves the view and search-miss counters from Redis into the statistics tables. */
export const knowledgeStatsProcessor = defineProcessor(knowledgeStatsQueue, {
  async perform(_payload, { services }) {
    return { rows: await flushKnowledgeStats(services) };
  },
});
