/** Formats shared by every module's views. */

/** A timestamp as ISO 8601 (UTC), null kept. */
export const iso = (d: Date | null | undefined): string | null => d?.toISOString() ?? null;

/** A calendar date (YYYY-MM-DD) from a DATE column (string) or a Date, null kept. */
export const dateOnly = (v: string | Date | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
