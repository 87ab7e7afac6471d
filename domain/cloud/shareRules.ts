import type { CloudShare, SharePermission, ShareKind } from '../../entities/cloud/share';
import { conflict, invalidField } from '../../lib/errors';

/** The fields of a new share as the API gives them. */
export interface ShareFields {
  kind: ShareKind;
  /** Link shares: after this time the link answers 410. */
  expiresAt?: Date;
  /** Link shares: needed to open the link (argon2-hashed). */
  password?: string;
  /** Member shares: members of the organisation. */
  memberIds?: string[];
  /** Link shares of a file: `view` (the default) or `edit` (the link also replaces the content). */
  permission?: SharePermission;
}

/**
 * Checks a new share's fields against its kind (400 naming the field): a link takes an expiry (in the future)
 * and a password but no members; a member share names at least one member and takes neither. Answers the
 * member ids, each once (none for a link).
 */
export function checkShareFields(props: ShareFields, now = Date.now()): string[] {
  if (props.kind === 'link') {
    if (props.permission === 'upload')
      throw invalidField('permission', 'upload is for folders: POST /api/cloud/folders/{id}/share');
    if (props.memberIds?.length) throw invalidField('memberIds', 'is for member shares only');
    if (props.expiresAt && props.expiresAt.getTime() <= now) throw invalidField('expiresAt', 'must be in the future');
    return [];
  }
  if (props.password || props.expiresAt)
    throw invalidField(props.password ? 'password' : 'expiresAt', 'is for link shares only');
  if (props.permission && props.permission !== 'view')
    throw invalidField('permission', 'is for link shares only: members read what is shared with them');
  const memberIds = [...new Set(props.memberIds ?? [])];
  if (!memberIds.length) throw invalidField('memberIds', 'must name at least one member');
  return memberIds;
}

/** A change of a share as the API gives it: absent keeps, null clears (expiry, password). */
export interface ShareEdit {
  expiresAt?: Date | null;
  password?: string | null;
  permission?: SharePermission;
  memberIds?: string[];
}

/**
 * Checks a change of a share against what it is (400 naming the field, 409 `share_revoked`): a link's expiry (in
 * the future, or null for none), password (or null) and, for a file's link, `view` or `edit` (a drop folder stays
 * `upload`); a member share's members (at least one) and nothing else. Answers the member ids, each once, when
 * they change.
 */
export function checkShareEdit(
  share: Pick<CloudShare, 'kind' | 'nodeKind' | 'revokedAt'>,
  props: ShareEdit,
  now = Date.now(),
): string[] | undefined {
  if (share.revokedAt) throw conflict('share_revoked', 'This share was revoked: share again instead');
  if (share.kind === 'link') {
    if (props.memberIds) throw invalidField('memberIds', 'is for member shares only');
    if (props.expiresAt && props.expiresAt.getTime() <= now) throw invalidField('expiresAt', 'must be in the future');
    if (props.permission && !linkPermissionsOf(share.nodeKind).includes(props.permission))
      throw invalidField(
        'permission',
        share.nodeKind === 'folder'
          ? 'is view or upload for a link to a folder'
          : 'is view or edit for a link to a file',
      );
    return undefined;
  }
  if (props.password !== undefined || props.expiresAt !== undefined)
    throw invalidField(props.password !== undefined ? 'password' : 'expiresAt', 'is for link shares only');
  if (props.permission && props.permission !== 'view')
    throw invalidField('permission', 'is for link shares only: members read what is shared with them');
  if (!props.memberIds) return undefined;
  const memberIds = [...new Set(props.memberIds)];
  if (!memberIds.length) throw invalidField('memberIds', 'must name at least one member');
  return memberIds;
}

/** Whether a share's link has expired: from its expiry on (an expiry of now is past). */
export const isExpired = (share: { expiresAt?: Date | null }, now = Date.now()) =>
  !!share.expiresAt && share.expiresAt.getTime() <= now;

/**
 * What the holder of a link does with it: download the file, replace its content, drop a file into the folder, or
 * list the folder's subtree and download its files.
 */
export type LinkUse = 'download' | 'replace' | 'drop' | 'browse';

/**
 * Whether a link allows a use: of a file, `view` downloads and `edit` also replaces; of a folder, `view` lists and
 * downloads what is inside and `upload` only drops.
 */
export function linkAllows(share: Pick<CloudShare, 'permission' | 'nodeKind'>, use: LinkUse): boolean {
  const folder = share.nodeKind === 'folder';
  switch (use) {
    case 'download':
      return !folder && (share.permission === 'view' || share.permission === 'edit');
    case 'replace':
      return !folder && share.permission === 'edit';
    case 'drop':
      return folder && share.permission === 'upload';
    case 'browse':
      return folder && share.permission === 'view';
  }
}

/** The permissions a link to a file or a folder takes (the database checks the same: cloud_shares_node_permission_check). */
export const linkPermissionsOf = (nodeKind: 'file' | 'folder'): SharePermission[] =>
  nodeKind === 'folder' ? ['view', 'upload'] : ['view', 'edit'];

/** The links to tell their creators about: expiring within `hours` from `now`. */
export const expiryNoticeWindow = (hours: number, now = Date.now()) => new Date(now + hours * 3_600_000);
