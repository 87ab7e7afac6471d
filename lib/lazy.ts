/**
 * A value built on first use instead of at startup. Packages only some requests or jobs need (Stripe,
 * OpenAI, the PDF and XML builders, the S3 client, SMTP, argon2, the queue dashboard, the migrator, the
 * Markdown renderer) are required through it, so a web dyno's memory holds only what its traffic uses
 * (README, Benchmarks: the web dyno's memory); a `require(...) as typeof import(...)` keeps them typed.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
