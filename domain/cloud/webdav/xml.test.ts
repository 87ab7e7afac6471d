import { parseXml, serializeElement, type XmlElement } from './xml';

const invalid = expect.objectContaining({ status: 400, code: 'xml_invalid' });

describe('parseXml', () => {
  it('resolves prefixes and the default namespace, keeps text and CDATA', () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="utf-8"?>\n<propfind xmlns="DAV:" xmlns:z="http://ex/"><prop><z:foo a="1">x &amp; &#x10000; <![CDATA[<y>]]></z:foo><bar xmlns=""/></prop></propfind>`,
    );
    expect(root).toMatchObject({ ns: 'DAV:', name: 'propfind' });
    const prop = root.children[0] as XmlElement;
    expect(prop).toMatchObject({ ns: 'DAV:', name: 'prop' });
    expect(prop.children[0]).toEqual({
      ns: 'http://ex/',
      name: 'foo',
      attrs: [{ ns: '', name: 'a', value: '1' }],
      children: ['x & \u{10000} ', '<y>'],
    });
    expect(prop.children[1]).toMatchObject({ ns: '', name: 'bar' });
  });

  it.each([
    ['not XML', 'foo'],
    ['unclosed', '<a><b></a>'],
    ['an unbound prefix', '<z:a xmlns:y="u"/>'],
    ['an empty prefixed namespace', '<z:a xmlns:z=""/>'],
    ['a DOCTYPE (entity expansion)', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['an undefined entity', '<a>&nbsp;</a>'],
    ['a reference to a non-character', '<a>&#0;</a>'],
    ['two roots', '<a/><b/>'],
  ])('refuses %s with 400 xml_invalid', (_what, text) => expect(() => parseXml(text)).toThrow(invalid));
});

describe('serializeElement', () => {
  it('writes an element that stands alone, every namespace declared on it, and reads back the same', () => {
    const el = parseXml(`<a:p xmlns:a="urn:a" xmlns:b="urn:b"><b:q b:w="&lt;1&gt;">t&amp;"</b:q><r xmlns=""/></a:p>`);
    const xml = serializeElement(el);
    expect(xml).toBe('<n0:p xmlns:n0="urn:a" xmlns:n1="urn:b"><n1:q n1:w="&lt;1&gt;">t&amp;&quot;</n1:q><r/></n0:p>');
    expect(parseXml(xml)).toEqual(el);
  });

  it('resets the default namespace of an element without one', () => {
    expect(serializeElement(parseXml('<p xmlns="">v</p>'))).toBe('<p xmlns="">v</p>');
  });
});
