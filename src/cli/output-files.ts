/**
 * Writing the files a command is asked for (--output, --report): never over one of its
 * inputs, never two outputs to one file, and never by truncating a good file first. Every
 * output goes to a temporary file in the same folder (so the rename cannot cross file
 * systems), is flushed to disk, and is renamed over the target in one step (POSIX rename(2)
 * replaces the target atomically): a full disk, a failed write or an interrupt leaves the
 * previous file as it was, and at worst a `.<name>.<pid>.tmp` beside it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { inputRead } from '../scenario/input-file.js';

/** What identifies a file: its device and inode when it exists, else its real absolute path. */
function identity(file: string): string {
  try {
    const s = statSync(file);
    return `inode ${s.dev}:${s.ino}`;
  } catch {
    try {
      return `path ${join(realpathSync(dirname(resolve(file))), basename(file))}`;
    } catch {
      return `path ${resolve(file)}`;
    }
  }
}

/**
 * Why these outputs cannot be written (null: they can): one is one of the inputs (the
 * scenario, a sample file, a module, a tally being merged), through any link or spelling,
 * or two are one file. Checked before anything runs.
 */
export function outputCollision(outputs: ReadonlyArray<readonly [flag: string, file: string | undefined]>, inputs: readonly string[]): string | null {
  const given = outputs.filter((o): o is readonly [string, string] => o[1] !== undefined);
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    const id = identity(input);
    if (!inputIds.has(id)) inputIds.set(id, input);
  }
  const seen = new Map<string, string>();
  for (const [flag, file] of given) {
    const id = identity(file);
    const input = inputIds.get(id);
    if (input !== undefined) return `${flag} ${file} is ${input === file ? 'an input' : `the input ${input}`} of this command: writing it would destroy it; give another file`;
    const other = seen.get(id);
    if (other !== undefined) return `${flag} ${file} is the same file as ${other}: give each output its own file`;
    seen.set(id, `${flag} ${file}`);
  }
  return null;
}

/**
 * Writes an output file through a temporary file and a rename; the message when it cannot
 * (null: written). A file this process read as an input (input-file.ts) is never replaced,
 * whatever the command checked before.
 */
export function writeAtomically(file: string, text: string): string | null {
  const input = inputRead(file);
  if (input !== null) return `cannot write ${file}: it is ${input === file ? 'an input' : `the input ${input}`} of this command`;
  let target = file;
  let mode: number | null = null;
  try {
    // Through a symbolic link: the file it points to is replaced, the link stays.
    target = realpathSync(file);
    mode = statSync(target).mode & 0o7777;
  } catch {
    // A new file.
  }
  const temp = join(dirname(resolve(target)), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, 'wx', 0o666);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    if (mode !== null) chmodSync(temp, mode);
    renameSync(temp, target);
    return null;
  } catch (err) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // Already failing; the write's error is the one to report.
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already renamed.
    }
    return `cannot write ${file}: ${err instanceof Error ? err.message : String(err)}`;
  }
}
