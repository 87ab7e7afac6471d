import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { KnowledgeSpace, SearchLanguage, SpaceMode } from '../../entities/knowledge/space';
import type { TenantContext } from '../context';
import { slugTaken, spaceSlug } from './slugs';
import { setArticlesLanguage } from './store/articles';
import { bumpSearchVersion } from './store/searchCache';
import { findSpace } from './store/spaces';

export interface UpdateSpaceProps {
  name?: string;
  mode?: SpaceMode;
  slug?: string;
  description?: string | null;
  language?: SearchLanguage;
}

/** Edits a space; a new language re-indexes its articles (the generated column follows) in the same transaction. */
export async function updateSpace(ctx: TenantContext, id: string, props: UpdateSpaceProps): Promise<KnowledgeSpace> {
  try {
    const space = await ctx.em.transactional(async (em) => {
      const space = await findSpace(em, id);
      if (props.slug !== undefined && props.slug !== space.slug)
        space.slug = await spaceSlug(em, props.slug, space.name, space.id);
      if (props.name !== undefined) space.name = props.name.trim();
      if (props.mode !== undefined) space.mode = props.mode;
      if (props.description !== undefined) space.description = props.description;
      if (props.language !== undefined && props.language !== space.language) {
        space.language = props.language;
        await setArticlesLanguage(em, space.id, props.language);
      }
      return space;
    });
    await bumpSearchVersion(ctx.services, ctx.tenantId);
    return space;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw slugTaken();
    throw err;
  }
}
