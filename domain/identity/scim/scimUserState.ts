import { scimProblem } from './scimProblem';

/** What this server keeps of a SCIM User (RFC 7643 4.1): the provider's names and whether it is active. */
export interface ScimUserState {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
}

/** A User body as POST and PUT take it: the state, and the e-mail that links or creates the account. */
export interface ScimUserInput extends ScimUserState {
  /** The primary e-mail of `emails`, else the first one; null when none was given. */
  email: string | null;
}

const LIMITS = { userName: 254, externalId: 255, givenName: 120, familyName: 120, displayName: 120, email: 254 };
const MAX_EMAILS = 20;

const invalid = (detail: string) => scimProblem('invalidValue', detail);

/** A string attribute: absent or null is null; a string is trimmed and bounded; anything else is refused. */
export function optionalText(value: unknown, name: keyof typeof LIMITS): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  const text = value.trim();
  if (text.length > LIMITS[name]) throw invalid(`${name} has at most ${LIMITS[name]} characters`);
  return text || null;
}

/** userName: required, 1 to 254 characters. */
export function userNameOf(value: unknown): string {
  const name = optionalText(value, 'userName');
  if (!name) throw invalid('userName is required');
  return name;
}

/** `active`: a boolean, or "true" / "false" in any case (Entra ID sends strings). */
export function activeOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid('active must be true or false');
}

const asObject = (value: unknown, name: string): Record<string, unknown> | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`${name} must be an object`);
  return value as Record<string, unknown>;
};

/** The e-mail of `emails` that links the account: the primary one, else the first. */
function emailOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw invalid('emails must be an array');
  if (value.length > MAX_EMAILS) throw invalid(`emails has at most ${MAX_EMAILS} entries`);
  const entries = value.map((entry, i) => {
    const object = asObject(entry, `emails[${i}]`);
    if (!object) throw invalid(`emails[${i}] must be an object`);
    return { value: optionalText(object.value, 'email'), primary: object.primary === true };
  });
  return (entries.find((e) => e.primary && e.value) ?? entries.find((e) => e.value))?.value ?? null;
}

/**
 * Reads a User resource as POST and PUT send it. Attributes this server does not keep (phone numbers,
 * addresses, the enterprise extension ...) are ignored; `id`, `meta` and `schemas` are the server's. `active`
 * defaults to true.
 */
export function readScimUser(body: unknown): ScimUserInput {
  const object = asObject(body, 'The body');
  if (!object) throw scimProblem('invalidSyntax', 'The body must be a SCIM User object');
  const name = asObject(object.name, 'name');
  return {
    userName: userNameOf(object.userName),
    externalId: optionalText(object.externalId, 'externalId'),
    givenName: optionalText(name?.givenName, 'givenName'),
    familyName: optionalText(name?.familyName, 'familyName'),
    displayName: optionalText(object.displayName, 'displayName'),
    active: object.active === undefined ? true : activeOf(object.active),
    email: emailOf(object.emails),
  };
}
