/**
 * Pages people read: no paragraph of the documentation is over 120 words. A list item counts
 * as a paragraph of its own; tables and code blocks are not prose.
 */
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, readPage } from './pages.js';

export const MAX_WORDS = 120;

/** The prose paragraphs of a page: blank-line separated, a list item on its own, no tables or code. */
export function paragraphs(text: string): string[] {
  const prose = text.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, '');
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push(current.join(' '));
    current = [];
  };
  for (const line of prose.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('|') || /^#+ /.test(line) || line.startsWith('<!--')) {
      flush();
      continue;
    }
    if (/^\s*([-*]|\d+\.) /.test(line)) flush();
    current.push(line.trim());
  }
  flush();
  return out;
}

const words = (p: string) => p.split(/\s+/).filter((w) => w !== '').length;

/** The paragraphs of a page over the limit, each as "N words: its start...". */
export function longParagraphs(text: string): string[] {
  return paragraphs(text)
    .filter((p) => words(p) > MAX_WORDS)
    .map((p) => `${words(p)} words: ${p.slice(0, 80)}...`);
}

describe('documentation paragraphs', () => {
  it('splits list items and skips tables and code', () => {
    expect(paragraphs('one two\nthree\n\n- a b\n- c\n\n| x | y |\n\n```\ncode here\n```\nlast').map(words)).toEqual([3, 3, 2, 1]);
  });

  it('finds a paragraph over the limit and leaves one at the limit alone', () => {
    const text = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const page = [text(MAX_WORDS + 1), '', text(MAX_WORDS), '', `- ${text(MAX_WORDS - 1)}`, `- ${text(MAX_WORDS)}`].join('\n');
    expect(longParagraphs(page).map((p) => p.split(':')[0])).toEqual([`${MAX_WORDS + 1} words`, `${MAX_WORDS + 1} words`]);
    const wrapped = text(MAX_WORDS).replace(/ (w\d*0) /g, '\n$1 ');
    expect(longParagraphs(wrapped)).toEqual([]);
    expect(longParagraphs(`${wrapped}\nmore`)).toHaveLength(1);
    expect(longParagraphs(['```', text(500), '```', 'after'].join('\n'))).toEqual([]);
    expect(longParagraphs(`| ${text(500)} |`)).toEqual([]);
  });

  it.each(DOC_PAGES)('%s has no paragraph over 120 words', (page) => {
    expect(longParagraphs(readPage(page))).toEqual([]);
  });
});
