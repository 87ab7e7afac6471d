import type { Subscription } from '../../entities/billing/subscription';
import type { Services } from '../services';
import { trialsRunningAt } from './store';

export interface ListTrialsProps {
  limit: number;
  /** Id of the last subscription of the previous page. */
  cursor?: string;
}

/** Trials running now, across organisations (internal route), oldest subscription first. */
export async function listRunningTrials(
  services: Services,
  props: ListTrialsProps,
): Promise<{ items: Subscription[]; nextCursor: string | null }> {
  const em = services.orm.em.fork();
  const items = await trialsRunningAt(em, new Date(), { limit: props.limit + 1, cursor: props.cursor });
  const more = items.length > props.limit;
  const page = items.slice(0, props.limit);
  return { items: page, nextCursor: more ? page.at(-1)!.id : null };
}
