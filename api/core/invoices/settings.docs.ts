import { prose } from '../../http/docs';

/** The long OpenAPI texts of settings.ts (prose: wrapped here, one line in the document). */

export const updateSettingsDocs = prose`
  Fields given replace the current ones. Numbers: prefix (with {YYYY} for the issue year) + the counter zero-padded to
  \`digits\`, e.g. F-2026-00042. With yearlyReset (default) each kind restarts at 1 every year and both prefixes must
  contain {YYYY} (so numbers of different years never collide); without it one counter runs for all years. Issued
  numbers never change; the next issue uses the new settings and continues the counter.
`;
