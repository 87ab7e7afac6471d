import { syncNumberOf, targetOf } from './handlers';
import { BadXml, CALDAV, DAV, child, multistatus, parseXml } from './xml';
import { DavProblem } from '../../../domain/core/booking/caldav/davProblem';

describe('caldav: XML with namespaces', () => {
  it('resolves prefixes and default namespaces', () => {
    const root = parseXml(
      '<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><getetag xmlns="DAV:"/></D:prop><C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>',
    );
    expect([root.ns, root.name]).toEqual([CALDAV, 'calendar-query']);
    expect(child(root, DAV, 'prop')?.children.map((c) => [c.ns, c.name])).toEqual([[DAV, 'getetag']]);
    expect(child(child(root, CALDAV, 'filter'), CALDAV, 'comp-filter')?.attrs).toEqual({ name: 'VCALENDAR' });
  });
  it.each([
    ['malformed', '<a><b></a>'],
    ['a DOCTYPE (no entity expansion)', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['an undeclared prefix', '<x:a/>'],
  ])('refuses %s', (_name, body) => expect(() => parseXml(body)).toThrow(BadXml));
  it('writes a multistatus that reads back', () => {
    const text = multistatus(
      [
        { href: '/a', found: [[{ ns: DAV, name: 'getetag' }, '"1"']], missing: [{ ns: 'urn:x', name: 'color' }] },
        { href: '/b', status: 404 },
      ],
      'http://h/dav/sync/3',
    );
    const root = parseXml(text);
    expect(root.children.map((c) => c.name)).toEqual(['response', 'response', 'sync-token']);
    expect(text).toContain('HTTP/1.1 404 Not Found');
  });
});

describe('caldav: paths and sync tokens', () => {
  const me = '11111111-1111-4111-8111-111111111111';
  it.each([
    ['/dav/', { kind: 'root' }],
    [`/dav/principals/${me}/`, { kind: 'principal' }],
    [`/dav/calendars/${me}`, { kind: 'home' }],
    [`/dav/calendars/${me}/personal/`, { kind: 'calendar' }],
    [`/dav/calendars/${me}/personal/a%20b.ics`, { kind: 'resource', name: 'a b.ics' }],
    ['/dav/calendars/22222222-2222-4222-8222-222222222222/personal/', null],
    [`/dav/calendars/${me}/other/`, null],
  ])('%s', (path, target) => expect(targetOf(path, me)).toEqual(target));
  it.each([
    ['', 0],
    ['http://h/dav/sync/5', 5],
    ['http://h/dav/sync/9', 'refused'],
    ['http://other/dav/sync/1', 'refused'],
    ['http://h/dav/sync/x', 'refused'],
  ])('token %p', (token, expected) => {
    let got: number | string;
    try {
      got = syncNumberOf(token, 'http://h', 7);
    } catch (err) {
      got = err instanceof DavProblem && err.status === 403 ? 'refused' : 'other';
    }
    expect(got).toBe(expected);
  });
});
