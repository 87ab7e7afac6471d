/** The waits before each retry of a failed delivery, from WEBHOOK_RETRY_SCHEDULE (seconds, comma-separated). */
export function parseRetrySchedule(raw: string): number[] {
  const waits = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (waits.some((w) => !Number.isFinite(w) || w < 0))
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must list seconds, got "${raw}"`);
  return waits.map((w) => Math.round(w * 1000));
}

/**
 * When the next attempt of a delivery whose `attempts` (this one counted) all failed is due, in ms from now, or
 * null when the retries are used up (the delivery is failed). A little jitter (up to 10%) spreads the retries of
 * many deliveries failing together.
 */
export function nextRetryDelay(schedule: readonly number[], attempts: number, random = Math.random): number | null {
  if (attempts < 1 || attempts > schedule.length) return null;
  const wait = schedule[attempts - 1];
  return Math.round(wait + wait * 0.1 * random());
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export const failedLongEnough = (failingSince: Date | null, now: Date, disableAfterHours: number): boolean =>
  failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterHours * 3600_000;
