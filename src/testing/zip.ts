import { crc32, createDeflateRaw } from 'node:zlib';

// A zip archive written by hand (tests only): for XLSX files no spreadsheet program would write — a zip bomb
// whose entry inflates far beyond its compressed size.

export interface ZipEntry {
  name: string;
  /** The entry's content, produced chunk by chunk (never held whole: a bomb's content is gigabytes). */
  chunks: () => Iterable<Buffer>;
}

async function deflated(entry: ZipEntry): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  let size = 0;
  for (const chunk of entry.chunks()) {
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(out), crc, size };
}

/** The zip file's bytes: every entry deflated, local headers, the central directory and its end record. */
export async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const { data, crc, size } = await deflated(entry);
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(crc >>> 0, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(size >>> 0, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, data);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/**
 * An XLSX zip bomb: a real workbook's parts, then shared strings whose one string inflates to `mib` MiB of 'A'
 * (a spreadsheet reader caches shared strings: read unbounded, this needs that much heap and more), in a file
 * of a few MB at most.
 */
export function xlsxSharedStringsBomb(mib: number): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 'A');
  const small = (text: string) => () => [Buffer.from(text)];
  return zipOf([
    {
      name: '[Content_Types].xml',
      chunks: small(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      chunks: small(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      chunks: small(
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/sharedStrings.xml',
      *chunks() {
        yield Buffer.from(
          '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>',
        );
        for (let i = 0; i < mib; i++) yield block;
        yield Buffer.from('</t></si></sst>');
      },
    },
  ]);
}
