import { randomBytes } from 'node:crypto';
import { CloudShare } from '../../entities/cloud/share';
import { forbidden, invalidField } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { getItem } from './items';
import { shareUrl } from './linkShare';
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
 * cloud.share, "outside the organisation") or with members (they are notified through the hub).
 */
export async function shareFile(ctx: TenantContext, fileId: string, props: ShareFileProps): Promise<CreatedShare> {
  const file = await getItem(ctx, fileId, 'file');
  if (
    props.kind === 'link' &&
    !(ctx.userId && (await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has('cloud.share'))
  ) {
    throw forbidden('permission_denied', 'Link shares need the permission cloud.share');
  }
  const memberIds = checkShareFields(props);
  if (memberIds.length) {
    const known = await membersAmong(ctx.em, ctx.tenantId, memberIds);
    const strangers = memberIds.filter((id) => !known.has(id));
    if (strangers.length)
      throw invalidField('memberIds', `are not members of the organisation: ${strangers.join(', ')}`);
  }
  const token = props.kind === 'link' ? randomBytes(24).toString('base64url') : null;
  const passwordHash = props.password ? await hashPassword(props.password) : null;
  const share = await ctx.em.transactional(async (em) =>
    em.create(CloudShare, {
      tenantId: ctx.tenantId,
      nodeId: file.id,
      kind: props.kind,
      tokenHash: token ? hashToken(token) : null,
      passwordHash,
      expiresAt: props.expiresAt ?? null,
      memberIds,
      createdBy: ctx.userId,
      revokedAt: null,
    }),
  );
  void notify(ctx.services, 'cloud', [
    {
      event: 'file.shared',
      tenantId: ctx.tenantId,
      subject: { fileId: file.id, userId: ctx.userId },
      data: { kind: props.kind, memberIds, expiresAt: share.expiresAt?.toISOString() ?? null },
    },
  ]);
  return { share, url: token ? shareUrl(ctx.services, token) : null };
}
