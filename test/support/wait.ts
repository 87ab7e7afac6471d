/** Polls until `probe` returns a truthy value (returned) or the time is up (throws with the last value). */
export async function eventually<T>(probe: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
