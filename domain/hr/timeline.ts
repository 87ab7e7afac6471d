import type { CorrectionAction, PunchKind } from '../../entities/hr/clock';
import { DAY_MS } from '../../lib/calendar';
import type { Em } from '../../lib/db';
import { correctionRows, punchRows, type CorrectionRow, type PunchRow } from './store/clock';

/** A punch as it stands once its corrections are applied (void: absent from the timeline). */
export interface EffectivePunch {
  eventId: string;
  kind: PunchKind;
  at: Date;
  corrected: boolean;
}

export interface WorkInterval {
  start: Date;
  end: Date;
  /** One of its punches was corrected. */
  corrected: boolean;
}

export interface Anomaly {
  at: Date;
  /** missing_exit: an entry without exit (still at work, or a forgotten punch); missing_entry: an exit without entry. */
  problem: 'missing_exit' | 'missing_entry';
}

/** How far a correction may move a punch: timelines read this much around their range. */
export const MAX_CORRECTION_SHIFT_MS = 7 * DAY_MS;

/**
 * A punch as its corrections (oldest first) leave it, null when voided: each amendment sets the fields it gives
 * (a kind-only amendment keeps an earlier amended time), and the latest void or amendment decides whether it
 * stands. The one rule of every read (timelines, timesheets, compliance, the clock event views).
 */
export function correctedPunch(
  event: { kind: PunchKind; at: Date },
  corrections: { action: CorrectionAction; at?: Date | null; kind?: PunchKind | null }[],
): { kind: PunchKind; at: Date } | null {
  let { kind, at } = event;
  let voided = false;
  for (const c of corrections) {
    voided = c.action === 'void';
    if (c.kind) kind = c.kind;
    if (c.at) at = c.at;
  }
  return voided ? null : { kind, at };
}

/** The effective punches: each event with its corrections applied in id order (correctedPunch); voided ones dropped. */
export function effectivePunches(events: PunchRow[], corrections: CorrectionRow[]): EffectivePunch[] {
  const byEvent = new Map<string, CorrectionRow[]>();
  for (const c of [...corrections].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    (byEvent.get(c.clockEventId) ?? byEvent.set(c.clockEventId, []).get(c.clockEventId)!).push(c);
  const out: EffectivePunch[] = [];
  for (const e of events) {
    const trail = byEvent.get(e.id) ?? [];
    const punch = correctedPunch(e, trail);
    if (punch) out.push({ eventId: e.id, ...punch, corrected: trail.length > 0 });
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime() || a.eventId.localeCompare(b.eventId));
}

/** Pairs effective punches (sorted) into work intervals: an entry followed by an exit; the rest are anomalies. */
export function workIntervals(punches: EffectivePunch[]): { intervals: WorkInterval[]; anomalies: Anomaly[] } {
  const intervals: WorkInterval[] = [];
  const anomalies: Anomaly[] = [];
  let open: EffectivePunch | null = null;
  for (const p of punches) {
    if (p.kind === 'in') {
      if (open) anomalies.push({ at: open.at, problem: 'missing_exit' });
      open = p;
    } else if (open) {
      if (p.at > open.at) intervals.push({ start: open.at, end: p.at, corrected: open.corrected || p.corrected });
      open = null;
    } else anomalies.push({ at: p.at, problem: 'missing_entry' });
  }
  if (open) anomalies.push({ at: open.at, problem: 'missing_exit' });
  return { intervals, anomalies };
}

/**
 * The effective punches of employees between two instants, by employee (events are read with
 * MAX_CORRECTION_SHIFT_MS of margin, then kept when their effective time is in the range).
 */
export async function loadPunches(
  em: Em,
  employeeIds: string[],
  from: Date,
  to: Date,
): Promise<Map<string, EffectivePunch[]>> {
  const byEmployee = new Map<string, EffectivePunch[]>(employeeIds.map((id) => [id, []]));
  if (!employeeIds.length) return byEmployee;
  const lo = new Date(from.getTime() - MAX_CORRECTION_SHIFT_MS);
  const hi = new Date(to.getTime() + MAX_CORRECTION_SHIFT_MS);
  const events = await punchRows(em, employeeIds, lo, hi);
  const corrections = events.length ? await correctionRows(em, employeeIds, lo, hi) : [];
  const eventsBy = new Map<string, PunchRow[]>();
  for (const e of events) (eventsBy.get(e.employeeId) ?? eventsBy.set(e.employeeId, []).get(e.employeeId)!).push(e);
  const correctionsBy = new Map<string, CorrectionRow[]>();
  const owner = new Map(events.map((e) => [e.id, e.employeeId]));
  for (const c of corrections) {
    const employeeId = owner.get(c.clockEventId)!;
    (correctionsBy.get(employeeId) ?? correctionsBy.set(employeeId, []).get(employeeId)!).push(c);
  }
  for (const [employeeId, rows] of eventsBy) {
    byEmployee.set(
      employeeId,
      effectivePunches(rows, correctionsBy.get(employeeId) ?? []).filter((p) => p.at >= from && p.at < to),
    );
  }
  return byEmployee;
}
