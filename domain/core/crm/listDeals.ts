import { Deal, type DealStatus } from '../../../entities/core/deal';
import type { Lean } from '../../../lib/lean';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { dealsPage } from './store/deals';

export interface ListDealsProps {
  customerId?: string;
  pipelineId?: string;
  stageId?: string;
  ownerId?: string;
  status?: DealStatus;
  limit: number;
  cursor?: string;
}

/** Deals, oldest first, filtered. */
export async function listDeals(ctx: TenantContext, props: ListDealsProps): Promise<Page<Lean<Deal>>> {
  const { customerId, pipelineId, stageId, ownerId, status, cursor } = props;
  return toPage(
    await dealsPage.all(
      ctx,
      customerId ?? null,
      pipelineId ?? null,
      stageId ?? null,
      ownerId ?? null,
      status ?? null,
      cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
}
