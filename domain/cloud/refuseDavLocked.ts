import type { TenantContext } from '../context';
import type { NodeSelection } from './selection';
import { anyLiveLock, locksAround } from './store/dav';
import { folderPath } from './store/items';
import { locked } from './webdav/locks';
import { pathKey } from './webdav/paths';

/**
 * A WebDAV write lock is a promise to the client holding it that nobody changes the resource meanwhile (RFC 4918 6):
 * an office suite editing a file over WebDAV locks it. The API and share links carry no lock token, so a change of
 * theirs that a lock covers (the item, a depth-infinity lock above it, or, for a folder's whole subtree, a lock
 * below) is 423 `locked`, as a WebDAV request without the token is. One indexed look when the organisation holds no
 * lock (almost always); the WebDAV routes check their own, with the tokens submitted (domain/cloud/webdav/locks.ts).
 */
export async function refuseDavLocked(
  ctx: TenantContext,
  targets: { nodeId: string; subtree?: boolean; child?: string }[],
): Promise<void> {
  if (!targets.length || !(await anyLiveLock(ctx.em, ctx.tenantId))) return;
  for (const target of targets) {
    const names = (await folderPath(ctx.em, ctx.tenantId, target.nodeId)).map((n) => n.name);
    if (!names.length) continue; // not the organisation's: the caller answers 404
    if (target.child !== undefined) names.push(target.child);
    const [lock] = await locksAround(ctx.em, ctx.tenantId, pathKey(names), target.subtree ?? false);
    if (lock) throw locked(lock.pathKey);
  }
}

/** The targets of a bulk change: each named item, a folder with its subtree. */
export const selectionTargets = (selection: NodeSelection) => [
  ...(selection.fileIds ?? []).map((nodeId) => ({ nodeId })),
  ...(selection.folderIds ?? []).map((nodeId) => ({ nodeId, subtree: true })),
];
