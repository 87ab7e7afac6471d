import { judgeChanges, MAX_PROPERTY_BYTES, type PropertyChange } from './patchProperties';
import type { XmlElement } from './xml';

const el = (ns: string, name: string, text = 'v'): XmlElement => ({ ns, name, attrs: [], children: [text] });

describe('judgeChanges', () => {
  it.each([
    [
      'dead properties are set and removed',
      [{ set: el('urn:x', 'a') }, { remove: { ns: 'urn:x', name: 'b' } }],
      [200, 200],
    ],
    [
      'a live property is protected, the others fail with it',
      [{ set: el('urn:x', 'a') }, { set: el('DAV:', 'getetag') }],
      [424, 403],
    ],
    ['removing a live property too', [{ remove: { ns: 'DAV:', name: 'resourcetype' } }], [403]],
    ['a DAV: name that is not live is a dead property', [{ set: el('DAV:', 'custom') }], [200]],
    ['a value past the bound', [{ set: el('urn:x', 'big', 'x'.repeat(MAX_PROPERTY_BYTES)) }], [507]],
  ] as [string, PropertyChange[], number[]][])('%s', (_what, changes, statuses) =>
    expect(judgeChanges(changes).map((r) => r.status)).toEqual(statuses),
  );
});
