import { unauthorized } from '../../../lib/errors';

/** Storefront visitors' sign-in: a magic link (single use) opens a session; both stored as SHA-256 hashes. */

/** A magic link works once, this long. */
export const VISITOR_LINK_TTL_MINUTES = 15;
/** The session a link opens lasts this long. */
export const VISITOR_SESSION_TTL_DAYS = 30;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const invalidLink = () =>
  unauthorized('visitor_link_invalid', 'This sign-in link is unknown, expired or already used; ask for a new one');
export const invalidSession = () => unauthorized('visitor_session_invalid', 'Sign in again with a new link');
