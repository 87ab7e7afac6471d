import { isUUID } from 'class-validator';
import { AppError } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { survivorOf } from '../store/duplicates';

/**
 * The answer for the id of a customer merged into another: 404 `customer_merged`, the survivor's id in the
 * problem's `errors` (field `mergedInto`) and a `Link` to it (rel `successor-version`); null for an id that is not
 * a merged customer of the organisation. No redirect: a client decides whether to follow (docs/crm.md).
 */
export async function customerMergedError(ctx: TenantContext, id: string): Promise<AppError | null> {
  const survivor = isUUID(id) ? await survivorOf(ctx.em, ctx.tenantId, id) : null;
  if (!survivor) return null;
  return new AppError(
    404,
    'customer_merged',
    `Customer ${id} was merged into customer ${survivor}`,
    [{ field: 'mergedInto', message: survivor }],
    { Link: `</api/customers/${survivor}>; rel="successor-version"` },
  );
}
