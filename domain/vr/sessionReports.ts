import { VrParticipant, VrSession } from '../../entities/vr/session';
import type { TenantContext } from '../context';
import { sessionWhere, type SessionFilters } from './listSessions';
import type { Page } from '../../lib/pagination';

export interface ParticipantProgress {
  participant: VrParticipant;
  /** Distinct steps passed / the simulation's steps, at most 1. */
  progress: number;
  completed: boolean;
}

export interface SessionReport {
  session: VrSession;
  /** Seconds from start to end, or to now while it runs. */
  durationSeconds: number;
  participantsCount: number;
  completedCount: number;
  /** Completed participants / participants; null without participants. */
  completionRate: number | null;
  participants: ParticipantProgress[];
}

export interface SessionReportsProps extends SessionFilters {
  limit: number;
  cursor?: string;
}

export const progressOf = (stepsPassed: number, steps: number) => Math.min(1, stepsPassed / Math.max(1, steps));
export const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * Per-session report, newest first, from the aggregates the telemetry worker maintains (no event is read):
 * fresh within the worker's lag, also while the session runs.
 */
export async function sessionReports(ctx: TenantContext, props: SessionReportsProps): Promise<Page<SessionReport>> {
  const rows = await ctx.em.find(VrSession, sessionWhere(props, props.cursor), { orderBy: { id: 'desc' }, limit: props.limit + 1 });
  const sessions = rows.slice(0, props.limit);
  const participants = sessions.length ? await ctx.em.find(VrParticipant, { sessionId: { $in: sessions.map((s) => s.id) } }, { orderBy: { joinedAt: 'asc nulls last', createdAt: 'asc' } }) : [];
  const bySession = new Map<string, VrParticipant[]>();
  for (const p of participants) bySession.set(p.sessionId, [...(bySession.get(p.sessionId) ?? []), p]);
  const now = Date.now();
  const items = sessions.map((session): SessionReport => {
    const list = (bySession.get(session.id) ?? []).map((participant) => ({
      participant,
      progress: progressOf(participant.stepsPassed, session.simulationSteps),
      completed: !!participant.completedAt,
    }));
    const completedCount = list.filter((p) => p.completed).length;
    return {
      session,
      durationSeconds: Math.max(0, Math.round(((session.endedAt?.getTime() ?? now) - session.startedAt.getTime()) / 1000)),
      participantsCount: list.length,
      completedCount,
      completionRate: ratio(completedCount, list.length),
      participants: list,
    };
  });
  return { items, nextCursor: rows.length > props.limit ? sessions[sessions.length - 1].id : null };
}
