import type { NodeKind } from '../../entities/cloud/node';
import type { CloudShare } from '../../entities/cloud/share';
import { invalidField, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { audit } from '../platform/audit';
import { getItem } from './items';
import { shareAudit } from './shareAudit';
import { checkShareEdit, type ShareEdit } from './shareRules';
import { mayShareLinks } from './shareFile';
import { membersAmong, shareOfNode } from './store/shares';

/**
 * Changes a share in place, as Nextcloud and Dropbox let their owners: a link's expiry, password or permission
 * (cloud.share, as creating one), a member share's members (those added are notified). The link keeps its address;
 * what changed holds from the next use on (addresses opened with a former password stop working: shareProof).
 * A new expiry is noticed again. Audited `cloud.share_updated` (never the password itself).
 */
export async function editShare(
  ctx: TenantContext,
  nodeId: string,
  shareId: string,
  props: ShareEdit,
  kind: NodeKind = 'file',
): Promise<CloudShare> {
  await getItem(ctx, nodeId, kind);
  const share = await shareOfNode(ctx.em, nodeId, shareId);
  if (!share) throw notFound('Share');
  const memberIds = checkShareEdit(share, props);
  if (share.kind === 'link') await mayShareLinks(ctx);
  const added = memberIds?.filter((id) => !share.memberIds.includes(id)) ?? [];
  if (added.length) {
    const known = await membersAmong(ctx.em, ctx.tenantId, added);
    const strangers = added.filter((id) => !known.has(id));
    if (strangers.length)
      throw invalidField('memberIds', `are not members of the organisation: ${strangers.join(', ')}`);
  }
  const changed: Record<string, unknown> = {};
  if (props.expiresAt !== undefined && props.expiresAt?.getTime() !== share.expiresAt?.getTime()) {
    share.expiresAt = props.expiresAt;
    share.expiryNotifiedAt = null;
    changed.expiresAt = props.expiresAt?.toISOString() ?? null;
  }
  if (props.password !== undefined) {
    share.passwordHash = props.password === null ? null : await hashPassword(props.password);
    changed.passwordProtected = props.password !== null;
  }
  if (props.permission && props.permission !== share.permission) {
    share.permission = props.permission;
    changed.permission = props.permission;
  }
  if (memberIds && memberIds.join() !== share.memberIds.join()) {
    share.memberIds = memberIds;
    changed.memberIds = memberIds;
  }
  if (!Object.keys(changed).length) return share;
  audit(ctx.em, shareAudit(ctx, 'cloud.share_updated', share, changed));
  await ctx.em.flush(); // one transaction: the change with its entry
  if (added.length)
    void notify(ctx.services, 'cloud', [
      {
        event: 'file.shared',
        tenantId: ctx.tenantId,
        subject: { fileId: share.nodeId, folderId: null, userId: ctx.userId },
        data: { kind: share.kind, permission: share.permission, memberIds: added, expiresAt: null },
      },
    ]);
  return share;
}
