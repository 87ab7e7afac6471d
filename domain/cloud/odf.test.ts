import { crc32 } from 'node:zlib';
import { documentFormats, documentTypes, emptyDocument } from './odf';

/** The entries of a zip of stored (uncompressed) entries, read from its local headers. */
function entries(zip: Buffer): { name: string; method: number; data: Buffer; crcOk: boolean }[] {
  const out = [];
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const crc = zip.readUInt32LE(at + 14);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const data = zip.subarray(at + 30 + nameLength, at + 30 + nameLength + size);
    out.push({ name, method, data, crcOk: crc32(data) === crc });
    at += 30 + nameLength + size;
  }
  return out;
}

describe('empty OpenDocument files', () => {
  it.each(documentTypes)('%s: a package whose first entry is its uncompressed media type', (type) => {
    const zip = emptyDocument(type);
    const found = entries(zip);
    expect(found.map((e) => e.name)).toEqual(['mimetype', 'META-INF/manifest.xml', 'content.xml']);
    expect(found.every((e) => e.method === 0 && e.crcOk)).toBe(true);
    expect(found[0].data.toString()).toBe(documentFormats[type].mediaType);
    expect(found[2].data.toString()).toContain(documentFormats[type].body);
    // The end of central directory counts the three entries.
    const end = zip.subarray(zip.length - 22);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect(end.readUInt16LE(10)).toBe(3);
  });
});
