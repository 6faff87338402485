/**
 * Reading a file a user names: a scenario, an `empirical(...)` or `histogram(...)` file, a
 * tally for `merge`. Only a regular file is read (a FIFO would block the read forever and
 * `/dev/zero` never ends), at most a given number of bytes (checked on the open file, before
 * reading, and again while reading, since a file may grow), and only as UTF-8 text: a UTF-16
 * or UTF-32 file (what some Windows editors and spreadsheet exports save) is named as such,
 * a NUL byte means a binary file, and bytes that are not UTF-8 are refused with their line,
 * instead of turning silently into U+FFFD. A UTF-8 byte order mark is dropped.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

type InputText = { ok: true; text: string } | { ok: false; message: string };

/** Every file read through readInputFile in this process, by device and inode, with the path it was read as. */
const inputsRead = new Map<string, string>();

/** The path `file` was read as if this process read it as an input (the same file by another name too), else null. */
export function inputRead(file: string): string | null {
  try {
    const s = statSync(file);
    return inputsRead.get(`${s.dev}:${s.ino}`) ?? null;
  } catch {
    return null;
  }
}

/** "8 MiB", "52.4 MB" style sizes for messages: binary units, one decimal below 10. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${units[unit]}`;
}

function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The text of `path`, or why it cannot be read. `what` names the file's role in messages
 * ("a scenario file"); `maxBytes` is its documented limit, and `limitHint` how to get past it.
 */
export function readInputFile(path: string, what: string, maxBytes: number, limitHint = ''): InputText {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? `is a folder, not ${what}` : `cannot read (${code ?? String(err)})` };
  }
  try {
    const stats = fstatSync(fd);
    const kind = kindOf(stats);
    if (kind !== null) return { ok: false, message: `is ${kind}, not ${what}: give the path of a regular file` };
    if (!inputsRead.has(`${stats.dev}:${stats.ino}`)) inputsRead.set(`${stats.dev}:${stats.ino}`, path);
    const tooBig = (size: string): InputText => ({ ok: false, message: `is ${size}, over the limit of ${formatBytes(maxBytes)} for ${what}${limitHint}` });
    if (stats.size > maxBytes) return tooBig(formatBytes(stats.size));
    // One byte more than the limit tells a file that grew past it (or a /proc file, size 0).
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(stats.size, 64 * 1024)) + 1);
    let length = 0;
    let chunk: Buffer = buffer;
    for (;;) {
      if (length === chunk.length) {
        if (chunk.length > maxBytes) return tooBig(`more than ${formatBytes(maxBytes)}`);
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, chunk.length * 2));
        chunk.copy(bigger, 0, 0, length);
        chunk = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, chunk, length, chunk.length - length, null);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return { ok: false, message: `cannot read (${code ?? String(err)})` };
      }
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) return tooBig(`more than ${formatBytes(maxBytes)}`);
    return decodeText(chunk.subarray(0, length), what);
  } finally {
    closeSync(fd);
  }
}

/** Line and column (from 1) of a byte offset, counting the bytes of the line as columns. */
function positionOf(bytes: Uint8Array, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/** Which UTF-16/32 a NUL-bearing file looks like, from where the NULs of its first characters fall. */
function wideEncoding(bytes: Uint8Array): string | null {
  const b = (i: number): number => (i < bytes.length ? bytes[i] : -1);
  if (b(0) === 0xff && b(1) === 0xfe && b(2) === 0 && b(3) === 0) return 'UTF-32 (little-endian)';
  if (b(0) === 0 && b(1) === 0 && b(2) === 0xfe && b(3) === 0xff) return 'UTF-32 (big-endian)';
  if (b(0) === 0xff && b(1) === 0xfe) return 'UTF-16 (little-endian)';
  if (b(0) === 0xfe && b(1) === 0xff) return 'UTF-16 (big-endian)';
  // No byte order mark: ASCII text in a wide encoding has NULs in fixed places.
  if (bytes.length >= 4 && b(0) !== 0 && b(1) === 0 && b(2) === 0 && b(3) === 0) return 'UTF-32 (little-endian)';
  if (bytes.length >= 4 && b(0) === 0 && b(1) === 0 && b(2) === 0 && b(3) !== 0) return 'UTF-32 (big-endian)';
  if (bytes.length >= 2 && b(0) !== 0 && b(1) === 0) return 'UTF-16 (little-endian)';
  if (bytes.length >= 2 && b(0) === 0 && b(1) !== 0) return 'UTF-16 (big-endian)';
  return null;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // RFC 3629 section 4: the well-formed sequences and their second-byte ranges.
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = bytes[i + k];
      if (d === undefined) return i;
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (d < min || d > max) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** Bytes -> text, or why they are not UTF-8 text. */
export function decodeText(bytes: Uint8Array, what: string): InputText {
  const wide = bytes.indexOf(0) >= 0 || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) ? wideEncoding(bytes) : null;
  if (wide !== null) return { ok: false, message: `is ${wide} text; ${what} is read as UTF-8: save it as UTF-8` };
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { ok: false, message: `holds a NUL byte at ${positionOf(bytes, nul)}: not a text file (${what} is UTF-8 text)` };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  const bad = isUtf8(body) ? -1 : firstInvalidUtf8(body);
  if (bad >= 0) return { ok: false, message: `is not UTF-8 text: byte 0x${body[bad].toString(16).padStart(2, '0')} at ${positionOf(body, bad)} (save it as UTF-8)` };
  return { ok: true, text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') };
}
