import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { KnowledgeSpace, type SearchLanguage, type SpaceMode } from '../../entities/knowledge/space';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { slugTaken, spaceSlug } from './slugs';
import { bumpSearchVersion } from './store/searchCache';

export interface CreateSpaceProps {
  name: string;
  mode: SpaceMode;
  slug?: string;
  description?: string | null;
  language?: SearchLanguage;
}

/** A space of the organisation; its slug is unique across the service (409 `slug_taken`). */
export async function createSpace(ctx: TenantContext, props: CreateSpaceProps): Promise<KnowledgeSpace> {
  let space: KnowledgeSpace;
  try {
    space = await ctx.em.transactional(async (em) => {
      const slug = await spaceSlug(em, props.slug, props.name);
      return em.create(KnowledgeSpace, {
        tenantId: ctx.tenantId,
        name: props.name.trim(),
        slug,
        mode: props.mode,
        description: props.description ?? null,
        language: props.language ?? 'english',
        createdBy: ctx.userId,
      });
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw slugTaken();
    throw err;
  }
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  await notifyKnowledge(
    ctx.services,
    ctx.tenantId,
    'space.created',
    { spaceId: space.id },
    { name: space.name, slug: space.slug, mode: space.mode },
  );
  return space;
}
