/**
 * A CalDAV refusal in the protocol's terms (RFC 4918 16, RFC 4791 5.3.2.1): the status and the precondition
 * element (in the DAV: or CalDAV namespace) a client reads, with a reason for people.
 */
export class DavProblem extends Error {
  constructor(
    readonly status: number,
    readonly condition: { ns: 'DAV:' | 'urn:ietf:params:xml:ns:caldav'; name: string } | null,
    message: string,
  ) {
    super(message);
  }
}

export const CALDAV_NS = 'urn:ietf:params:xml:ns:caldav' as const;
