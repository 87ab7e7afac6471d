import { AppError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { removeProperty, setProperty, type DavNode } from '../store/dav';
import { isLive, type PropName } from './multistatus';
import { serializeElement, type XmlElement } from './xml';

/** Most bytes a dead property's value may take (the column's check). */
export const MAX_PROPERTY_BYTES = 65536;

export type PropertyChange = { set: XmlElement } | { remove: PropName };

const nameOf = (change: PropertyChange): PropName =>
  'set' in change ? { ns: change.set.ns, name: change.set.name } : change.remove;

/**
 * What a PROPPATCH would do to each property, in order (RFC 4918 9.2): a live (protected) property cannot be set
 * or removed (403), a value past MAX_PROPERTY_BYTES is refused (507); when one fails, all others fail with 424
 * and nothing changes. Pure.
 */
export function judgeChanges(changes: PropertyChange[]): { prop: PropName; status: number }[] {
  const statuses = changes.map((change) => {
    const prop = nameOf(change);
    if (isLive(prop)) return 403;
    if ('set' in change && Buffer.byteLength(serializeElement(change.set)) > MAX_PROPERTY_BYTES) return 507;
    return 200;
  });
  const failed = statuses.some((s) => s !== 200);
  return changes.map((change, i) => ({
    prop: nameOf(change),
    status: failed && statuses[i] === 200 ? 424 : statuses[i],
  }));
}

/** PROPPATCH: applies the changes in order, all or none (one transaction); returns each property's status. */
export async function patchProperties(
  ctx: TenantContext,
  node: DavNode,
  changes: PropertyChange[],
): Promise<{ prop: PropName; status: number }[]> {
  const results = judgeChanges(changes);
  if (results.some((r) => r.status !== 200)) return results;
  if (!node.id) throw new AppError(403, 'root_properties', 'The root folder takes no dead properties');
  await ctx.em.transactional(async (em) => {
    for (const change of changes) {
      if ('set' in change)
        await setProperty(em, ctx.tenantId, {
          nodeId: node.id,
          namespace: change.set.ns,
          name: change.set.name,
          value: serializeElement(change.set),
        });
      else await removeProperty(em, ctx.tenantId, node.id, change.remove.ns, change.remove.name);
    }
  });
  return results;
}
