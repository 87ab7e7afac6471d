import { dayOf, viewFields } from '../../domain/knowledge/analytics';
import { statsKeys } from '../../domain/knowledge/store/stats';
import type { TestStack } from '../support/stack';

/** The space's views counted in Redis today (recording is fire-and-forget after the answer: tests wait for it). */
export const spaceViewsCounted = async (stack: TestStack, tenantId: string, spaceId: string): Promise<number> =>
  Number(
    await stack.services.redis.hget(
      statsKeys(stack.services).views,
      viewFields({ tenantId, spaceId, articleId: '-' }, dayOf(new Date()))[1],
    ),
  );
