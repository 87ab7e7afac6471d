import { scimProblem } from './scimProblem';

/** What a User or Group filter may compare (RFC 7644 3.4.2.2), each with `eq`. */
export type ScimFilterAttribute = 'userName' | 'externalId' | 'emails.value' | 'id' | 'displayName' | 'members';

export interface ScimFilterTerm {
  attribute: ScimFilterAttribute;
  value: string;
}

/** The filterable attributes of each resource, lower-cased, with the URN prefix an attribute may carry. */
const RESOURCES = {
  User: {
    urn: 'urn:ietf:params:scim:schemas:core:2.0:user:',
    names: 'userName, externalId, emails.value or id',
    attributes: {
      username: 'userName',
      externalid: 'externalId',
      'emails.value': 'emails.value',
      emails: 'emails.value',
      id: 'id',
    } as Record<string, ScimFilterAttribute>,
  },
  Group: {
    urn: 'urn:ietf:params:scim:schemas:core:2.0:group:',
    names: 'displayName, externalId, id or members.value',
    attributes: {
      displayname: 'displayName',
      externalid: 'externalId',
      id: 'id',
      'members.value': 'members',
      members: 'members',
    } as Record<string, ScimFilterAttribute>,
  },
};
const OPERATORS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr']);

/** Longest filter read: an identity provider's lookups are a few terms. */
export const MAX_FILTER_LENGTH = 1000;

const invalid = (detail: string) => scimProblem('invalidFilter', detail);

/**
 * Parses the `filter` of GET /scim/v2/Users or /Groups: terms `<attribute> eq "<value>"` joined by `and` (attribute
 * names and operators case-insensitive, an attribute may carry its schema's URN). A User's attributes are userName,
 * externalId, emails.value (or emails) and id; a Group's displayName, externalId, id and members.value (or members);
 * values are JSON strings. Anything else (`or`, `not`, other
 * operators, other attributes, a value that is not a string) is 400 invalidFilter. The terms all must match.
 */
export function parseScimFilter(filter: string, resource: keyof typeof RESOURCES = 'User'): ScimFilterTerm[] {
  const { urn, names, attributes } = RESOURCES[resource];
  if (filter.length > MAX_FILTER_LENGTH) throw invalid(`A filter has at most ${MAX_FILTER_LENGTH} characters`);
  const terms: ScimFilterTerm[] = [];
  let at = 0;
  const skipBlanks = () => {
    while (at < filter.length && /\s/.test(filter[at])) at++;
  };
  const word = () => {
    skipBlanks();
    const match = /^[A-Za-z][\w.:-]*/.exec(filter.slice(at));
    if (!match) return '';
    at += match[0].length;
    return match[0];
  };
  for (;;) {
    const name = word();
    if (!name) throw invalid(`Expected an attribute name at character ${at + 1}`);
    const bare = name.toLowerCase().startsWith(urn) ? name.slice(urn.length) : name;
    const attribute = attributes[bare.toLowerCase()];
    if (!attribute) throw invalid(`Filtering on ${name} is not supported; use ${names}`);
    const operator = word().toLowerCase();
    if (operator !== 'eq')
      throw invalid(
        OPERATORS.has(operator)
          ? `The operator ${operator} is not supported; use eq`
          : `Expected an operator after ${name} at character ${at + 1}`,
      );
    skipBlanks();
    terms.push({ attribute, value: readString() });
    skipBlanks();
    if (at === filter.length) return terms;
    const joiner = word().toLowerCase();
    if (joiner !== 'and')
      throw invalid(
        joiner === 'or' || joiner === 'not'
          ? `The logical operator ${joiner} is not supported; join terms with and`
          : `Expected "and" at character ${at + 1}`,
      );
  }

  /** A JSON string literal at `at`. */
  function readString(): string {
    if (filter[at] !== '"') throw invalid(`Expected a quoted string value at character ${at + 1}`);
    let end = at + 1;
    while (end < filter.length && filter[end] !== '"') end += filter[end] === '\\' ? 2 : 1;
    if (end >= filter.length) throw invalid('A string value is not closed');
    let value: unknown;
    try {
      value = JSON.parse(filter.slice(at, end + 1));
    } catch {
      throw invalid(`The string value at character ${at + 1} is not valid`);
    }
    at = end + 1;
    return value as string;
  }
}
