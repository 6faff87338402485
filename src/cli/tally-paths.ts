/**
 * What `merge` is given, as files: a file as it is; a folder, every *.json under it (its
 * subfolders too: actions/download-artifact puts each artifact in a folder of its own), in
 * name order; a glob (with * ? [ or {, for a shell that did not expand it, e.g. quoted in a
 * workflow file), the files it matches under its fixed leading folders. A folder or glob that
 * yields nothing is an error; a path that does not exist is merge's to name.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { filesUnder } from './folder-files.js';
import picomatch from 'picomatch';
import { UsageError } from './option-parsers.js';

/** Enough for any real run (10,000 shards is the most --shard allows), not an accidental walk of a home folder. */
const MAX_TALLY_PATHS = 10_000;

export function tallyPaths(args: readonly string[]): string[] {
  const files: string[] = [];
  for (const arg of args) {
    if (isFolder(arg)) {
      const found = filesUnder(arg, (path) => path.endsWith('.json'), MAX_TALLY_PATHS);
      if (found.length === 0) throw new UsageError(`${arg}: a folder with no .json tally files in it`);
      files.push(...found);
    }
    else if (picomatch.scan(arg).isGlob) {
      const { base } = picomatch.scan(arg);
      const matches = picomatch(arg, { dot: false });
      const root = base === '' ? '.' : base;
      const found = isFolder(root) ? filesUnder(root, (path) => matches(base === '' ? relative('.', path) : path), MAX_TALLY_PATHS) : [];
      if (found.length === 0) throw new UsageError(`${arg}: the glob matches no file`);
      files.push(...found);
    } else files.push(arg);
    if (files.length > MAX_TALLY_PATHS) throw new UsageError(`${arg}: over ${MAX_TALLY_PATHS} tally files; merge the shards of one run`);
  }
  // Not deduplicated: a file given twice (or by a folder and a glob) is a shard given twice, which merge names.
  return files;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
