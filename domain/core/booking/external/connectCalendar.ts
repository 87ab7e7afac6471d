import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { CalendarConnection } from '../../../../entities/core/calendar';
import { AppError, conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { RefusedTarget, resolveTarget } from '../../../webhooks/resolveTarget';
import { urlProblem } from '../../../webhooks/addressPolicy';
import { calendarSyncQueue } from '../../../../queues/booking';
import { caller } from '../calendarEventRules';
import { sealPassword } from './connectionSecrets';
import { syncJobId, type ConnectionState } from './connections';
import { calendarPolicy } from './policy';

export interface ConnectCalendarInput {
  name?: string;
  url: string;
  username: string;
  password: string;
}

/**
 * The caller connects an external CalDAV calendar: the URL is checked by the address policy (422
 * `calendar_url_refused`), the app password sealed, and its first sync staged with the row (it runs at once; its
 * outcome shows on the connection). The same URL twice: 409 `calendar_already_connected`.
 */
export async function connectCalendar(ctx: TenantContext, input: ConnectCalendarInput): Promise<ConnectionState> {
  const ownerId = caller(ctx);
  const policy = calendarPolicy(ctx.services.config);
  const refuse = (detail: string) => new AppError(422, 'calendar_url_refused', `The URL is refused: ${detail}`);
  const problem = urlProblem(input.url, policy);
  if (problem) throw refuse(problem);
  try {
    await resolveTarget(new URL(input.url), policy);
  } catch (err) {
    if (err instanceof RefusedTarget) throw refuse(err.message);
    throw err;
  }
  const em = ctx.em;
  const connection = em.create(CalendarConnection, {
    tenantId: ctx.tenantId,
    ownerId,
    name: input.name?.trim() || new URL(input.url).host,
    url: input.url,
    username: input.username,
    passwordSealed: sealPassword(ctx.services, input.password),
  });
  const staged = stageJob(
    em,
    calendarSyncQueue,
    { tenantId: ctx.tenantId, connectionId: connection.id },
    syncJobId(connection.id, 'connected'),
  );
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('calendar_already_connected', 'This calendar URL is already connected');
    throw err;
  }
  await enqueueStaged(ctx.services, [staged]);
  return { connection, objects: 0 };
}
