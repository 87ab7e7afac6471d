import { randomUUID } from 'node:crypto';
import { newId } from '../../../entities/base';
import type { DavLockDepth, DavLockScope } from '../../../entities/cloud/dav';
import { AppError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import {
  deleteLock,
  deleteLocksWithin,
  insertLock,
  lockByToken,
  lockDavLocks,
  locksAround,
  refreshLock,
  type DavLockRow,
} from '../store/dav';

/** WebDAV write locks (RFC 4918 6-7): taken, refreshed and released per path, checked before every change. */

export const locked = (lockRoot: string) =>
  new AppError(423, 'locked', `The resource is locked (${lockRoot}); submit its lock token in an If header`);

/** Whether two locks can coexist: shared with shared only. */
export const compatible = (held: DavLockScope, wanted: DavLockScope) => held === 'shared' && wanted === 'shared';

export interface NewLock {
  pathKey: string;
  depth: DavLockDepth;
  scope: DavLockScope;
  ownerXml: string | null;
  timeoutSeconds: number;
}

/**
 * Takes a lock (423 `locked` when a lock on the path, above it with depth infinity, or below it for a depth
 * infinity lock, conflicts). The lock changes of an organisation are serialised, so two exclusive locks can
 * never both be granted.
 */
export async function takeLock(ctx: TenantContext, wanted: NewLock): Promise<DavLockRow> {
  return ctx.em.transactional(async (em) => {
    await lockDavLocks(em, ctx.tenantId);
    const held = await locksAround(em, ctx.tenantId, wanted.pathKey, wanted.depth === 'infinity');
    const clash = held.find((h) => !compatible(h.scope, wanted.scope));
    if (clash) throw locked(clash.pathKey);
    const lock: DavLockRow = {
      ...wanted,
      token: `opaquelocktoken:${randomUUID()}`,
      userId: ctx.userId!,
      expiresAt: new Date(Date.now() + wanted.timeoutSeconds * 1000),
    };
    await insertLock(em, { ...lock, id: newId(), tenantId: ctx.tenantId });
    return lock;
  });
}

/**
 * Refreshes a lock of the caller that covers the path (412 `lock_token_mismatch` for a token that is not one
 * of its locks there).
 */
export async function renewLock(
  ctx: TenantContext,
  pathKey: string,
  tokens: string[],
  timeoutSeconds: number,
): Promise<DavLockRow> {
  return ctx.em.transactional(async (em) => {
    await lockDavLocks(em, ctx.tenantId);
    const covering = await locksAround(em, ctx.tenantId, pathKey);
    const lock = covering.find((l) => tokens.includes(l.token) && l.userId === ctx.userId);
    if (!lock) throw new AppError(412, 'lock_token_mismatch', 'No lock of yours with this token covers the resource');
    await refreshLock(em, ctx.tenantId, lock.token, timeoutSeconds);
    return { ...lock, timeoutSeconds, expiresAt: new Date(Date.now() + timeoutSeconds * 1000) };
  });
}

/** Releases a lock covering the path (409 `lock_token_mismatch` when the token is not a lock of the resource). */
export async function releaseLock(ctx: TenantContext, pathKey: string, token: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    await lockDavLocks(em, ctx.tenantId);
    const lock = await lockByToken(em, ctx.tenantId, token);
    const covering = lock ? await locksAround(em, ctx.tenantId, pathKey) : [];
    if (!lock || !covering.some((l) => l.token === token))
      throw new AppError(409, 'lock_token_mismatch', 'This lock token does not lock the resource');
    if (lock.userId !== ctx.userId) throw new AppError(403, 'lock_not_yours', 'This lock belongs to another member');
    await deleteLock(em, ctx.tenantId, token);
  });
}

/**
 * Checks that the caller may change these paths: for each, every lock covering it (or inside it, when the
 * change takes a whole subtree) must have one of its tokens submitted by the member who holds it (423 `locked`
 * otherwise, naming the lock's root).
 */
export async function checkUnlocked(
  ctx: TenantContext,
  targets: { pathKey: string; subtree: boolean }[],
  submitted: string[],
): Promise<void> {
  for (const target of targets) {
    const locks = await locksAround(ctx.em, ctx.tenantId, target.pathKey, target.subtree);
    const blocking = unsatisfied(locks, submitted, ctx.userId);
    if (blocking) throw locked(blocking.pathKey);
  }
}

/**
 * The first lock the submitted tokens do not satisfy: an exclusive lock needs its own token, the shared locks of
 * one root need one of theirs; a token counts only for the member holding its lock. Pure.
 */
export function unsatisfied(locks: DavLockRow[], submitted: string[], userId: string | null): DavLockRow | undefined {
  const has = (l: DavLockRow) => submitted.includes(l.token) && l.userId === userId;
  const byRoot = new Map<string, DavLockRow[]>();
  for (const l of locks) byRoot.set(l.pathKey, [...(byRoot.get(l.pathKey) ?? []), l]);
  for (const group of byRoot.values()) if (!group.some(has)) return group[0];
  return undefined;
}

/** Locks of a path and below go with its resource (deleted, or moved away). */
export const dropLocks = (ctx: TenantContext, pathKey: string) => deleteLocksWithin(ctx.em, ctx.tenantId, pathKey);
