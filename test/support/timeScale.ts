import { availableParallelism, loadavg } from 'node:os';

/**
 * How much slower than an idle machine this one runs now: the one-minute load per core when the test file
 * starts (at least 1, at most 6), or TEST_TIME_SCALE when set. Time bounds that wait for something to happen
 * (jest's test and hook timeouts, `eventually`, validity windows a test must outlive) scale with it, so a busy
 * machine makes the suite slower, not red. Bounds that assert speed do not belong in tests (bench/ measures it).
 */
export const TIME_SCALE =
  Number(process.env.TEST_TIME_SCALE) || Math.min(6, Math.max(1, loadavg()[0] / availableParallelism()));

/** `ms` on an idle machine, scaled to this one's load. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
