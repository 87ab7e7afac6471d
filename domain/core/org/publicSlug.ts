/**
 * Rules of a business's public slug, the address of its storefront (/api/public/stores/{publicSlug}) and
 * public knowledge base: 3 to 63 lower-case letters, digits and inner hyphens (a DNS label, so it can also
 * become a sub-domain), no double hyphen, and none of the words the suite's own addresses or a visitor
 * could mistake for the platform use. The database repeats the format (check constraint) and uniqueness.
 */
export const PUBLIC_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export const reservedSlugs: ReadonlySet<string> = new Set([
  // the suite's own addresses and surfaces
  'admin',
  'administrator',
  'api',
  'app',
  'apps',
  'assets',
  'auth',
  'billing',
  'blog',
  'booking',
  'bookings',
  'calendar',
  'cdn',
  'cloud',
  'connect',
  'core',
  'dashboard',
  'dashboards',
  'docs',
  'files',
  'health',
  'help',
  'hr',
  'hub',
  'images',
  'internal',
  'invoices',
  'kb',
  'knowledge',
  'login',
  'logout',
  'mail',
  'me',
  'metrics',
  'new',
  'oauth',
  'onboarding',
  'openapi',
  'orgs',
  'public',
  'register',
  'rh',
  'settings',
  'sidebar',
  'signin',
  'signup',
  'static',
  'status',
  'storage',
  'store',
  'stores',
  'support',
  'system',
  'vr',
  'webhooks',
  'www',
  // words a visitor could take for the platform speaking
  'abuse',
  'account',
  'accounts',
  'contact',
  'legal',
  'null',
  'official',
  'postmaster',
  'privacy',
  'root',
  'security',
  'staff',
  'terms',
  'undefined',
]);

/** The slug as stored: trimmed and lower-cased (slugs compare case-insensitively). */
export const normaliseSlug = (slug: string): string => slug.trim().toLowerCase();

/** Why a (normalised) slug cannot be used, or null when its form is fine. Uniqueness is checked apart. */
export function slugProblem(slug: string): string | null {
  if (!PUBLIC_SLUG_PATTERN.test(slug))
    return 'must be 3 to 63 lower-case letters, digits or hyphens, starting and ending with a letter or digit';
  if (slug.includes('--')) return 'must not contain two hyphens in a row';
  if (reservedSlugs.has(slug)) return `"${slug}" is reserved`;
  return null;
}
