import { scaled } from './timeScale';

/**
 * Polls until `probe` returns a truthy value (returned) or the time is up; a probe that throws is tried
 * again, and its last error is what a timeout throws. `timeoutMs` is for an idle machine: it scales with the
 * load (test/support/timeScale.ts).
 */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + scaled(timeoutMs);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
