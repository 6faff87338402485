/** Every relative link of the documentation reaches a file, and every #anchor a heading or an id on that page. */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, readPage } from './pages.js';

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

/** The anchors a page defines: its headings (outside code blocks) and its `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) continue;
    const heading = /^#+ (.*)/.exec(line);
    if (heading) anchors.add(slug(heading[1]));
    for (const id of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** Markdown links `[label](target)` outside code blocks. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

describe('documentation links', () => {
  it.each(DOC_PAGES)('%s: every relative link and anchor resolves', (page) => {
    const broken: string[] = [];
    for (const target of linksOf(readPage(page))) {
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto: not checked here
      const [file, anchor] = target.split('#');
      const path = file === '' ? page : normalize(join(dirname(page), file));
      if (!existsSync(path)) {
        broken.push(`${target} (no file ${path})`);
        continue;
      }
      if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(readPage(path)).has(anchor)) broken.push(`${target} (no anchor in ${path})`);
    }
    expect(broken).toEqual([]);
  });

  it('README is a front page under 300 lines that links every page of docs/', () => {
    const readme = readPage('README.md');
    expect(readme.split('\n').length).toBeLessThan(300);
    const linked = new Set(linksOf(readme).map((t) => normalize(t.split('#')[0])));
    const pages = DOC_PAGES.filter((p) => p !== 'README.md' && !p.startsWith('docs/model/') && !p.startsWith('docs/reference/') && !p.startsWith('docs/guides/'));
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
    // The model, guide and reference pages are reached from README or from their folder's index page.
    const modelIndex = new Set(linksOf(readPage('docs/model/README.md')).map((t) => normalize(join('docs/model', t.split('#')[0]))));
    const reached = (p: string) => linked.has(p) || modelIndex.has(p);
    expect(DOC_PAGES.filter((p) => p.startsWith('docs/') && p !== 'docs/model/README.md' && !reached(p))).toEqual([]);
  });
});
