import { defineQueue } from './define';

/** Mails a published blog article to the space's confirmed subscribers, one batch per job (the next batch is enqueued by the job). */
export interface KnowledgeMailingJob {
  tenantId: string;
  articleId: string;
  /** Subscribers after this id are next (absent for the first batch). */
  afterSubscriberId?: string;
}
export const knowledgeMailingQueue = defineQueue<KnowledgeMailingJob>('knowledge-mailing');

/** Moves the view and search counters of Redis into the statistics tables (the clock enqueues it every minute). */
export const knowledgeStatsQueue = defineQueue<{ slot: string }>('knowledge-stats', {
  defaults: { attempts: 3, removeOnComplete: { age: 3600, count: 100 } },
});
