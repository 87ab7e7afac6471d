import { crc32 } from 'node:zlib';

/**
 * Empty OpenDocument files (ODF 1.2: text, spreadsheet, presentation), the formats the office editors
 * (Collabora, OnlyOffice, LibreOffice) open natively. A package is a zip whose first entry is the
 * uncompressed `mimetype`; every entry here is stored uncompressed.
 */
export const documentTypes = ['doc', 'sheet', 'slides'] as const;
export type DocumentType = (typeof documentTypes)[number];

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.2"';

export const documentFormats: Record<
  DocumentType,
  { extension: string; mediaType: string; defaultName: string; body: string }
> = {
  doc: {
    extension: 'odt',
    mediaType: 'application/vnd.oasis.opendocument.text',
    defaultName: 'Untitled document',
    body: '<office:text><text:p/></office:text>',
  },
  sheet: {
    extension: 'ods',
    mediaType: 'application/vnd.oasis.opendocument.spreadsheet',
    defaultName: 'Untitled spreadsheet',
    body: '<office:spreadsheet><table:table table:name="Sheet1"><table:table-column/><table:table-row><table:table-cell/></table:table-row></table:table></office:spreadsheet>',
  },
  slides: {
    extension: 'odp',
    mediaType: 'application/vnd.oasis.opendocument.presentation',
    defaultName: 'Untitled presentation',
    body: '<office:presentation><draw:page draw:name="page1"/></office:presentation>',
  },
};

export function emptyDocument(type: DocumentType): Buffer {
  const { mediaType, body } = documentFormats[type];
  const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mediaType}" manifest:version="1.2"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:body>${body}</office:body></office:document-content>`;
  return storedZip([
    ['mimetype', mediaType],
    ['META-INF/manifest.xml', manifest],
    ['content.xml', content],
  ]);
}

/** A zip of uncompressed entries (method 0), enough for an ODF package. */
function storedZip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(0, 6); // flags 0, method 0 (stored)
    local.writeUInt32LE(0x00210000, 10); // time 00:00, date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
