import type { Request } from 'express';
import { UNPUBLISHED_PERMISSION } from '../../domain/apikeys/keyGrants';
import type { Actor } from '../../domain/knowledge/lookup';
import type { TenantContext } from '../../domain/context';
import type { ArticleKind } from '../../entities/knowledge/article';
import type { Routes } from '../http/routes';

/**
 * The knowledge routes exist on two surfaces with the same paths after their prefix, the same inputs and the
 * same answers: the member surface (/api/knowledge, JWT + module `knowledge` + knowledge.read / knowledge.write)
 * and the integration surface (/api/public/knowledge, X-Server-API-Key of the organisation: scope read for GET,
 * write for every mutation, the organisation still entitled to `knowledge`). Route files declare each route
 * once for a Surface.
 */
export interface Surface {
  r: Routes;
  prefix: '/api/knowledge' | '/api/public/knowledge';
  /** Guard fields of a route that reads or writes. */
  gate(level: 'read' | 'write'): Gate;
  /** Kind of an article created without one. */
  defaultKind: ArticleKind;
  /** The word used in descriptions. */
  who: string;
}

export type Gate =
  | { access: 'user'; module: 'knowledge'; permission: 'knowledge.read' | 'knowledge.write' }
  | { access: 'apiKey'; apiKey: { module: 'knowledge' } };

export const memberSurface = (r: Routes): Surface => ({
  r,
  prefix: '/api/knowledge',
  gate: (level) => ({
    access: 'user',
    module: 'knowledge',
    permission: level === 'read' ? 'knowledge.read' : 'knowledge.write',
  }),
  defaultKind: 'rich',
  who: 'members (JWT, knowledge.read for reads, knowledge.write for changes)',
});

export const integrationSurface = (r: Routes): Surface => ({
  r,
  prefix: '/api/public/knowledge',
  gate: () => ({ access: 'apiKey', apiKey: { module: 'knowledge' } }),
  defaultKind: 'developer',
  who: 'integrations (X-Server-API-Key; scope write for mutations)',
});

/** Who acts: the signed-in member, or the integration key (userId null). */
export const actorOf = ({ ctx, req }: { ctx: TenantContext; req: Request }): Actor => ({
  userId: ctx.userId,
  apiKeyId: req.apiKey?.keyId ?? null,
});

/**
 * Whether the caller sees drafts, articles in review and archived ones: members holding knowledge.write, and
 * integration keys whose creator did when creating them and still does (ApiKeyPrincipal.seesUnpublished). Members
 * who may only read, and their keys, see published articles (others answer 404).
 */
export async function seesUnpublished({ ctx, req }: { ctx: TenantContext; req: Request }): Promise<boolean> {
  if (req.apiKey) return req.apiKey.seesUnpublished;
  if (!ctx.userId) return true;
  return (await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has(UNPUBLISHED_PERMISSION);
}
