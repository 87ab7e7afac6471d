import { Activity } from '../../../entities/core/activity';
import type { TenantContext } from '../../context';
import { placeDone } from './addActivity';
import { checkMember } from './members';
import { refreshLastContact } from './store/customers';
import { requestHealthRecompute } from './requestHealthRecompute';
import { findActivity } from './activityLookup';

export interface ActivityChanges {
  /** true completes (now), false reopens. */
  completed?: boolean;
  subject?: string;
  body?: string;
  occurredAt?: Date;
  dueAt?: Date | null;
  assigneeId?: string | null;
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
