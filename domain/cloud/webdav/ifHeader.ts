import { badRequest } from '../../../lib/errors';

/** The If header of RFC 4918 10.4: lists of conditions, each list optionally tagged with the resource it is about. */

export interface IfCondition {
  not: boolean;
  /** A state token (a lock token such as `opaquelocktoken:...`, or `DAV:no-lock`, which no resource has). */
  token?: string;
  /** An entity tag, as written (`"abc"` or `W/"abc"`). */
  etag?: string;
}

export interface IfList {
  /** The tagged resource (a URI or absolute path as written); undefined: the request's resource. */
  resource?: string;
  conditions: IfCondition[];
}

const invalid = (detail: string) => badRequest('if_header_invalid', `The If header is malformed: ${detail}`);

/** Parses an If header into its lists (400 `if_header_invalid` when malformed). */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let at = 0;
  let resource: string | undefined;
  let tagged: boolean | undefined;
  const skip = () => {
    while (at < header.length && /\s/.test(header[at])) at++;
  };
  const until = (close: string) => {
    const end = header.indexOf(close, at + 1);
    if (end < 0) throw invalid(`"${header[at]}" is not closed`);
    const text = header.slice(at + 1, end);
    at = end + 1;
    return text;
  };
  for (skip(); at < header.length; skip()) {
    if (header[at] === '<') {
      if (tagged === false) throw invalid('tagged and untagged lists are mixed');
      tagged = true;
      resource = until('>');
      skip();
      if (header[at] !== '(') throw invalid('a resource tag is followed by a list');
      continue;
    }
    if (header[at] !== '(') throw invalid(`unexpected "${header[at]}"`);
    if (tagged === undefined) tagged = false;
    at++;
    const conditions: IfCondition[] = [];
    for (skip(); header[at] !== ')'; skip()) {
      if (at >= header.length) throw invalid('a list is not closed');
      let not = false;
      if (/^not\b/i.test(header.slice(at))) {
        not = true;
        at += 3;
        skip();
      }
      if (header[at] === '<') conditions.push({ not, token: until('>') });
      else if (header[at] === '[') conditions.push({ not, etag: until(']') });
      else throw invalid(`unexpected "${header[at] ?? 'end'}" in a list`);
    }
    at++;
    if (!conditions.length) throw invalid('a list is empty');
    lists.push({ resource: tagged ? resource : undefined, conditions });
  }
  if (!lists.length) throw invalid('no list');
  return lists;
}

/** What a resource is, for evaluating conditions: its entity tag (null when it does not exist) and its lock tokens. */
export interface ResourceState {
  etag: string | null;
  lockTokens: string[];
}

/** Strong comparison (RFC 9110 8.8.3.2): a weak tag never matches. */
const sameEtag = (a: string, b: string | null) => b !== null && !a.startsWith('W/') && a === b;

/** Whether one condition holds for a resource. */
export function conditionHolds(condition: IfCondition, state: ResourceState): boolean {
  const holds =
    condition.token !== undefined
      ? state.lockTokens.includes(condition.token)
      : sameEtag(condition.etag ?? '', state.etag);
  return condition.not ? !holds : holds;
}

/**
 * Whether the header is satisfied: at least one list all of whose conditions hold for the resource it is
 * about (`stateOf` is given the list's tag; undefined for the request's resource).
 */
export function ifHeaderHolds(lists: IfList[], stateOf: (resource: string | undefined) => ResourceState): boolean {
  return lists.some((list) => {
    const state = stateOf(list.resource);
    return list.conditions.every((c) => conditionHolds(c, state));
  });
}

/** The lock tokens a client submits with the header (every state token it names outside a Not). */
export const submittedTokens = (lists: IfList[]): string[] =>
  lists.flatMap((l) => l.conditions.filter((c) => !c.not && c.token !== undefined).map((c) => c.token!));
