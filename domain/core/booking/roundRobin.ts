/**
 * Round robin of a storefront booking that names no staff member: which of the staff free at the slot takes it.
 * Fair as Cal.com's "weighted round robin" means it, computed from what the database holds (no counter to drift):
 * the highest priority first; within a priority, the fewest bookings of the service in the window for their
 * weight (a weight of 200 takes twice the share of a weight of 100); then the one booked least recently (never
 * first); then the id, so two equal candidates are ordered the same way on every dyno.
 */
import type { AppointmentAssignment } from '../../../entities/core/booking';

/** Bookings counted: the live ones of the service starting from this many days ago (upcoming ones included). */
export const ROUND_ROBIN_WINDOW_DAYS = 30;

export interface RoundRobinCandidate {
  id: string;
  priority: number;
  weight: number;
}

/** A candidate's bookings of the service in the window, and when it was last booked (null: never). */
export interface RecentBookings {
  count: number;
  lastBookedAt: Date | null;
}

/** Why the chosen one was chosen over the next: the first rule that told them apart. */
export type AssignmentReason = AppointmentAssignment['reason'];
export type Assignment = AppointmentAssignment;

const NONE: RecentBookings = { count: 0, lastBookedAt: null };

/** Orders `candidates` (the first takes the booking; the next ones if a concurrent booking wins its slot). */
export function rankRoundRobin<C extends RoundRobinCandidate>(
  candidates: C[],
  recent: ReadonlyMap<string, RecentBookings>,
): C[] {
  return [...candidates].sort((a, b) => compare(a, b, recent).order);
}

function compare(
  a: RoundRobinCandidate,
  b: RoundRobinCandidate,
  recent: ReadonlyMap<string, RecentBookings>,
): { order: number; reason: AssignmentReason } {
  if (a.priority !== b.priority) return { order: b.priority - a.priority, reason: 'higher_priority' };
  const ra = recent.get(a.id) ?? NONE;
  const rb = recent.get(b.id) ?? NONE;
  // count / weight compared without division: a.count * b.weight vs b.count * a.weight.
  const load = ra.count * b.weight - rb.count * a.weight;
  if (load !== 0) return { order: load, reason: 'fewer_bookings_for_weight' };
  const ta = ra.lastBookedAt?.getTime() ?? -Infinity;
  const tb = rb.lastBookedAt?.getTime() ?? -Infinity;
  if (ta !== tb) return { order: ta < tb ? -1 : 1, reason: 'least_recently_booked' };
  return { order: a.id < b.id ? -1 : a.id > b.id ? 1 : 0, reason: 'tie' };
}

/** How `chosen` was assigned among `ranked` (the order rankRoundRobin gave), for the answer and the appointment. */
export function assignmentOf(
  chosen: RoundRobinCandidate,
  ranked: RoundRobinCandidate[],
  recent: ReadonlyMap<string, RecentBookings> | null,
): Assignment {
  const base = {
    considered: ranked.length,
    priority: chosen.priority,
    weight: chosen.weight,
    recentBookings: recent?.get(chosen.id)?.count ?? 0,
    windowDays: ROUND_ROBIN_WINDOW_DAYS,
  };
  if (!recent) return { method: 'requested', reason: 'requested', ...base };
  // Against the runner-up: the next ranked after the chosen one (later than first when the earlier ones lost the
  // slot to a concurrent booking); none left, it was the only one available.
  const next = ranked[ranked.indexOf(chosen) + 1] as RoundRobinCandidate | undefined;
  const reason = next ? compare(chosen, next, recent).reason : 'only_available';
  return { method: 'round_robin', reason, ...base };
}
