import { isUUID } from 'class-validator';
import { Activity } from '../../../entities/core/activity';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';

/** The activity with this id, or 404 (a malformed id included). */
export async function findActivity(ctx: TenantContext, id: string): Promise<Activity> {
  const activity = isUUID(id) ? await ctx.em.findOne(Activity, { id }) : null;
  if (!activity) throw notFound('Activity');
  return activity;
}
