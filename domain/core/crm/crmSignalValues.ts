/**
 * The values of the CRM's health signals (crmSignals.ts reads their inputs), each 0 (bad) to 1 (healthy):
 *
 *  recency (30)          last contact (call, e-mail, meeting done) d days ago: 1 up to 14 days, falling linearly
 *                        to 0 at 90 days; 0 when never contacted
 *  overdue_tasks (20)    n open follow-ups past their due date: 1 - 0.25 n (0 from 4)
 *  deal_momentum (15)    share of the open deals that entered their stage (created or moved) in the last 30 days;
 *                        does not apply without open deals
 *  activity_trend (10)   activities of the last 30 days (r) against the 30 before (p): 0.5 + (r - p) / (2 max(r, p)),
 *                        so steady is 0.5, growing up to 1, fading down to 0; 0 when both are 0
 */
export const DAY = 86_400_000;
const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number) => Math.round(v * 1000) / 1000;

/** Whole days from `then` to `now` (0 for a time in the future); null when there was no contact. */
export const daysSince = (then: Date | null, now: Date): number | null =>
  then ? Math.max(0, Math.floor((now.getTime() - then.getTime()) / DAY)) : null;

export const recencyValue = (days: number | null) =>
  days === null ? 0 : days <= 14 ? 1 : days >= 90 ? 0 : round(1 - (days - 14) / 76);
export const overdueValue = (n: number) => clamp(1 - 0.25 * n);
export const momentumValue = (moved: number, open: number) => round(moved / open);
export const trendValue = (recent: number, previous: number) =>
  recent === 0 && previous === 0 ? 0 : round(clamp(0.5 + (recent - previous) / (2 * Math.max(recent, previous))));
