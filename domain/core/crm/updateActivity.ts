import { isUUID } from 'class-validator';
import { Activity } from '../../../entities/core/activity';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { placeDone } from './addActivity';
import { checkMember } from './members';
import { refreshLastContact } from './store/customers';
import { requestHealthRecompute } from './requestHealthRecompute';

export interface ActivityChanges {
  /** true completes (now), false reopens. */
  completed?: boolean;
  subject?: string;
  body?: string;
  occurredAt?: Date;
  dueAt?: Date | null;
  assigneeId?: string | null;
}

async function findActivity(ctx: TenantContext, id: string): Promise<Activity> {
  const activity = isUUID(id) ? await ctx.em.findOne(Activity, { id }) : null;
  if (!activity) throw notFound('Activity');
  return activity;
}

/**
 * Completes (or reopens) and edits an activity. Completing twice keeps the first completion time. A done
 * activity placed in the future is placed at its completion time (placeDone).
 */
export async function updateActivity(ctx: TenantContext, id: string, changes: ActivityChanges): Promise<Activity> {
  const activity = await findActivity(ctx, id);
  if (changes.assigneeId !== undefined) {
    await checkMember(ctx.em, 'assigneeId', changes.assigneeId);
    activity.assigneeId = changes.assigneeId;
  }
  const now = new Date();
  if (changes.completed === true && !activity.completedAt) activity.completedAt = now;
  if (changes.completed === false) activity.completedAt = null;
  if (changes.subject !== undefined) activity.subject = changes.subject.trim();
  if (changes.body !== undefined) activity.body = changes.body;
  if (changes.occurredAt) activity.occurredAt = changes.occurredAt;
  if (changes.dueAt !== undefined) activity.dueAt = changes.dueAt;
  // Done: it has happened (a planned call made early is placed at its completion, and counts as a contact).
  activity.occurredAt = placeDone(activity.occurredAt, activity.completedAt, now);
  await ctx.em.transactional(async (em) => {
    await em.flush();
    await refreshLastContact(em, ctx.tenantId, activity.customerId);
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, [activity.customerId]);
  return activity;
}

export async function deleteActivity(ctx: TenantContext, id: string): Promise<void> {
  const activity = await findActivity(ctx, id);
  await ctx.em.transactional(async (em) => {
    em.remove(activity);
    await em.flush();
    await refreshLastContact(em, ctx.tenantId, activity.customerId);
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, [activity.customerId]);
}
