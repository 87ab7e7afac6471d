import { Activity, type ActivityType } from '../../../entities/core/activity';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import { checkMember } from './members';
import { refreshLastContact } from './store/customers';
import { requestHealthRecompute } from './requestHealthRecompute';

export interface ActivityInput {
  type: ActivityType;
  subject: string;
  body?: string;
  /** When it happened or is planned; default dueAt for a planned one, else now. */
  occurredAt?: Date;
  dueAt?: Date | null;
  assigneeId?: string | null;
  /** Done already; default: notes and e-mails are, tasks are not, calls and meetings are unless they have a dueAt. */
  completed?: boolean;
}

/** Whether an activity of this type is done when created (unless told). */
export const completedByDefault = (type: ActivityType, dueAt: Date | null | undefined) =>
  type === 'note' || type === 'email' ? true : type === 'task' ? false : !dueAt;

/**
 * Where a done activity is placed: it has happened, so a time in the future (a planned call or meeting made
 * early, or added as done with a future dueAt) becomes its completion time (now, at the latest).
 */
export const placeDone = (occurredAt: Date, completedAt: Date | null | undefined, now: Date): Date =>
  completedAt && occurredAt > now ? (completedAt < now ? completedAt : now) : occurredAt;

/** Adds an activity to a customer; a contact (call, e-mail, meeting done) refreshes lastContactAt and the score. */
export async function addActivity(ctx: TenantContext, customerId: string, input: ActivityInput): Promise<Activity> {
  await getCustomer(ctx, customerId);
  await checkMember(ctx.em, 'assigneeId', input.assigneeId);
  const now = new Date();
  const done = input.completed ?? completedByDefault(input.type, input.dueAt);
  const activity = await ctx.em.transactional(async (em) => {
    const made = em.create(Activity, {
      tenantId: ctx.tenantId,
      customerId,
      type: input.type,
      subject: input.subject.trim(),
      body: input.body ?? '',
      occurredAt: placeDone(input.occurredAt ?? input.dueAt ?? now, done ? now : null, now),
      dueAt: input.dueAt ?? null,
      completedAt: done ? now : null,
      assigneeId: input.assigneeId ?? (input.type === 'task' ? ctx.userId : null),
      createdBy: ctx.userId,
      source: null,
      externalId: null,
    });
    await em.flush();
    await refreshLastContact(em, ctx.tenantId, customerId);
    return made;
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, [customerId]);
  return activity;
}
