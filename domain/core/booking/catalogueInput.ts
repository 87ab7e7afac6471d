import type { BookingQuestion, DateOverrides, WeeklyHours } from '../../../entities/core/booking';
import type { Em } from '../../../lib/db';
import { notFound } from '../../../lib/errors';
import { countServices, findGroup } from './store/catalogue';

/** What the catalogue's writes take, and the checks they share. */

export interface ServiceInput {
  groupId?: string | null;
  name?: string;
  description?: string | null;
  durationMinutes?: number;
  priceCents?: number;
  currency?: string;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  minNoticeMinutes?: number;
  capacity?: number;
  maxAdvanceDays?: number | null;
  questions?: BookingQuestion[];
  active?: boolean;
}

export interface GroupInput {
  name?: string;
  description?: string | null;
  sortOrder?: number;
}

export interface StaffInput {
  displayName?: string;
  bio?: string | null;
  email?: string | null;
  phone?: string | null;
  weeklyHours?: WeeklyHours;
  serviceIds?: string[];
  dateOverrides?: DateOverrides;
  maxPerDay?: number | null;
  maxPerWeek?: number | null;
  priority?: number;
  weight?: number;
  active?: boolean;
}

/** The fields of a partial update that were given (undefined leaves a column as it is; null clears it). */
export const defined = <T extends object>(input: T): Partial<T> =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;

/** 404 `Service group` unless a given group is the organisation's. */
export async function checkGroup(em: Em, groupId: string | null | undefined): Promise<void> {
  if (groupId) await findGroup(em, groupId).catch(() => Promise.reject(notFound('Service group')));
}

/** 404 `Service` unless every given service is the organisation's. */
export async function checkServices(em: Em, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  if ((await countServices(em, ids)) !== new Set(ids).size) throw notFound('Service');
}
