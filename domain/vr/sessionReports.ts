import type { VrParticipant, VrSession } from '../../entities/vr/session';
import type { Lean } from '../../lib/lean';
import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { sessionRows, type ListSessionsProps } from './listSessions';
import { progressOf, ratio } from './reportRules';
import { participantsOfSessions } from './store/sessions';

export interface ParticipantProgress {
  participant: Lean<VrParticipant>;
  /** Distinct steps passed / the simulation's steps, at most 1. */
  progress: number;
  completed: boolean;
}

export interface SessionReport {
  session: Lean<VrSession>;
  /** Seconds from start to end, or to now while it runs. */
  durationSeconds: number;
  participantsCount: number;
  completedCount: number;
  /** Completed participants / participants; null without participants. */
  completionRate: number | null;
  participants: ParticipantProgress[];
}

/**
 * Per-session report, newest first, from the aggregates the telemetry worker maintains (no event is read):
 * fresh within the worker's lag, also while the session runs.
 */
export async function sessionReports(ctx: TenantContext, props: ListSessionsProps): Promise<Page<SessionReport>> {
  const rows = await sessionRows(ctx, props);
  const sessions = rows.slice(0, props.limit);
  const participants = sessions.length
    ? await participantsOfSessions.all(
        ctx,
        sessions.map((s) => s.id),
      )
    : [];
  const bySession = new Map<string, Lean<VrParticipant>[]>();
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
      durationSeconds: Math.max(
        0,
        Math.round(((session.endedAt?.getTime() ?? now) - session.startedAt.getTime()) / 1000),
      ),
      participantsCount: list.length,
      completedCount,
      completionRate: ratio(completedCount, list.length),
      participants: list,
    };
  });
  return { items, nextCursor: rows.length > props.limit ? sessions[sessions.length - 1].id : null };
}
