import type { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import { isEntitled } from '../core/org/activeModules';
import type { Services } from '../services';
import { findSpaceOfAnyTenant, publicSpaceOfSlug } from './store/spaces';

/** Modes whose spaces the public surface shows; internal spaces never appear there. */
export const publicModes = ['public_kb', 'blog'] as const;

/**
 * Whether the anonymous surface may serve an organisation's spaces: the check of the booking storefront
 * (openStore): its cached entitlements grant the module and do not say suspended. Only the entitlements: the
 * organisation's active-modules setting shapes its workspace, while access to a module's API (the member and
 * integration surfaces of knowledge included) stays governed by the entitlements, so none is switched off here.
 */
export async function servesKnowledge(services: Services, tenantId: string): Promise<boolean> {
  return isEntitled(await services.entitlements.get(tenantId), 'knowledge');
}

/**
 * The public space of a slug (lean; its tenantId binds every further read), or 404 as for an unknown slug when
 * it is internal, or its organisation is suspended or not entitled to knowledge.
 */
export async function readPublicSpace(services: Services, slug: string): Promise<Lean<KnowledgeSpace>> {
  const space = await publicSpaceOfSlug(services, slug);
  if (!space || !(await servesKnowledge(services, space.tenantId))) throw notFound('Space');
  return space;
}

/** The same space as an entity of `em` (readPublicSpace's rules), for use cases that write (subscribe). */
export async function findPublicSpace(services: Services, em: Em, slug: string): Promise<KnowledgeSpace> {
  const { id } = await readPublicSpace(services, slug);
  return findSpaceOfAnyTenant(em, id);
}
