/**
 * The files under a folder that a command reads (check's scenarios, merge's tallies), in name
 * order: never into node_modules or a dot-folder (.git, .github, a ConfigMap's ..data), never
 * through a link to a folder (a link can loop); a link to a file counts as the file.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Folders a search never enters besides dot-folders. */
const SKIPPED_FOLDERS = ['node_modules'];

export function filesUnder(dir: string, keep: (path: string, name: string) => boolean, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => byName(a.name, b.name))) {
      if (out.length > limit) return;
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.includes(entry.name)) visit(path);
      } else if ((entry.isFile() || isFile(path)) && keep(path, entry.name)) out.push(path);
    }
  };
  visit(dir);
  return out;
}

/** A link's target is a file (a link to a folder is not followed; a dangling one is nothing). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
