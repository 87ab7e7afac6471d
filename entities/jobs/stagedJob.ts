import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';

/**
 * A job written in the same transaction as the rows it works on (the transactional outbox): a commit holds
 * its jobs, whatever happens to the process or to Redis after it. The writer enqueues them once committed and
 * deletes the rows; what is left (a crash, Redis unreachable) is enqueued by the relay a minute later
 * (domain/jobs/relayStagedJobs.ts). Platform-wide (no tenant filter): only the relay reads it.
 */
export const StagedJob = defineEntity({
  name: 'StagedJob',
  tableName: 'staged_jobs',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    id: idColumn(),
    /** The queue's name (queues/index.ts). */
    queue: p.string().length(100),
    /** BullMQ's job id: enqueueing a staged job twice runs it once. */
    jobId: p.string().length(400),
    payload: p.json<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
});
export type StagedJob = InferEntity<typeof StagedJob>;
