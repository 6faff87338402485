/** The project's documentation pages: README, ARCHITECTURE, CONTRIBUTING and everything under docs/. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

export const DOC_PAGES: readonly string[] = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...markdownUnder('docs').sort()];

export function readPage(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every page's text, joined: for "is it documented somewhere" checks. */
export function allDocs(): string {
  return DOC_PAGES.map(readPage).join('\n');
}
