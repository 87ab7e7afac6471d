import { randomBytes } from 'node:crypto';
import { CloudShare, type SharePermission } from '../../entities/cloud/share';
import { forbidden, invalidField } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { getItem } from './items';
import { shareUrl } from './linkShare';
import { audit } from '../platform/audit';
import { shareAudit } from './shareAudit';
import { checkShareFields, type ShareFields } from './shareRules';
import { membersAmong } from './store/shares';

export type ShareFileProps = ShareFields;

export interface CreatedShare {
  share: CloudShare;
  /** Link shares: the address, shown this once (only its token's hash is stored). */
  url: string | null;
}

/**
 * Shares a live file: a link (anyone holding it, optionally until expiresAt and with a password; needs
 * cloud.share, "outside the organisation"; `edit` lets it replace the content) or with members (they are notified
 * through the hub).
 */
export async function shareFile(ctx: TenantContext, fileId: string, props: ShareFileProps): Promise<CreatedShare> {
  const file = await getItem(ctx, fileId, 'file');
  if (props.kind === 'link') await mayShareLinks(ctx);
  const memberIds = checkShareFields(props);
  if (memberIds.length) {
    const known = await membersAmong(ctx.em, ctx.tenantId, memberIds);
    const strangers = memberIds.filter((id) => !known.has(id));
    if (strangers.length)
      throw invalidField('memberIds', `are not members of the organisation: ${strangers.join(', ')}`);
  }
  return recordShare(ctx, { fileId: file.id }, { ...props, memberIds, permission: props.permission ?? 'view' });
}

/** Link shares need cloud.share: a link reaches outside the organisation. */
export async function mayShareLinks(ctx: TenantContext): Promise<void> {
  if (!(ctx.userId && (await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has('cloud.share')))
    throw forbidden('permission_denied', 'Link shares need the permission cloud.share');
}

/** Records a checked share of a file or a folder (a link gets its token, shown once), audited, and tells the hub. */
export async function recordShare(
  ctx: TenantContext,
  node: { fileId: string } | { folderId: string },
  props: ShareFields & { memberIds: string[]; permission: SharePermission },
): Promise<CreatedShare> {
  const token = props.kind === 'link' ? randomBytes(24).toString('base64url') : null;
  const passwordHash = props.password ? await hashPassword(props.password) : null;
  const nodeId = 'fileId' in node ? node.fileId : node.folderId;
  const share = await ctx.em.transactional(async (em) => {
    const made = em.create(CloudShare, {
      tenantId: ctx.tenantId,
      nodeId,
      kind: props.kind,
      tokenHash: token ? hashToken(token) : null,
      passwordHash,
      expiresAt: props.expiresAt ?? null,
      memberIds: props.memberIds,
      createdBy: ctx.userId,
      revokedAt: null,
      permission: props.permission,
      nodeKind: 'fileId' in node ? 'file' : 'folder',
      expiryNotifiedAt: null,
    });
    audit(
      em,
      shareAudit(ctx, 'cloud.share_created', made, {
        memberIds: made.memberIds,
        expiresAt: made.expiresAt?.toISOString() ?? null,
        passwordProtected: !!passwordHash,
      }),
    );
    return made;
  });
  void notify(ctx.services, 'cloud', [
    {
      event: 'file.shared',
      tenantId: ctx.tenantId,
      subject: {
        fileId: 'fileId' in node ? nodeId : null,
        folderId: 'folderId' in node ? nodeId : null,
        userId: ctx.userId,
      },
      data: {
        kind: props.kind,
        permission: props.permission,
        memberIds: props.memberIds,
        expiresAt: share.expiresAt?.toISOString() ?? null,
      },
    },
  ]);
  return { share, url: token ? shareUrl(ctx.services, token) : null };
}
