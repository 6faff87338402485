/**
 * docs/reference/limits.md lists every limit: each `MAX_...` constant of the code that reads
 * input (src/scenario, src/sweep, src/cli, and the engine's events per instant) appears there
 * with its value, so a limit added or changed without its line fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/scenario/input-file.js';

const FOLDERS = ['src/scenario', 'src/sweep', 'src/cli', 'src/cli/commands'];
const EXTRA = ['src/engine/no-progress.ts'];

/** `8 * 1024 * 1024`, `2 ** 32 - 1`, `1_000_000`: the arithmetic of a constant's initializer, or null. */
function valueOf(expression: string): number | null {
  const text = expression.replace(/_/g, '').trim();
  if (!/^[\d\s*+\-()]+$/.test(text)) return null;
  return Function(`"use strict"; return (${text});`)() as number;
}

function limits(): Array<{ name: string; file: string; value: number }> {
  const files = [...FOLDERS.flatMap((f) => readdirSync(f).filter((n) => n.endsWith('.ts')).map((n) => join(f, n))), ...EXTRA];
  const out: Array<{ name: string; file: string; value: number }> = [];
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:export )?const ((?:DEFAULT_)?MAX_[A-Z_]+) = ([^;]+);/gm)) {
      const value = valueOf(m[2]);
      if (value !== null) out.push({ name: m[1], file, value });
    }
  }
  return out;
}

/** How the page writes a limit: bytes in binary units, microseconds in hours, counts with commas. */
const written = (name: string, value: number): string => (name.endsWith('_BYTES') ? formatBytes(value) : name.endsWith('_US') ? `${value / 3_600_000_000} h` : value.toLocaleString('en-US'));

describe('the limits page', () => {
  const page = readFileSync('docs/reference/limits.md', 'utf8');

  it('gives the value of every limit of the code', () => {
    const found = limits();
    expect(found.length).toBeGreaterThan(20);
    const missing = found.filter((l) => !page.includes(written(l.name, l.value))).map((l) => `${l.name} (${l.file}) = ${written(l.name, l.value)}`);
    expect(missing).toEqual([]);
  });

  it('is not vacuous: a value the page does not give is found missing', () => {
    expect(page.includes(written('MAX_X_BYTES', 7 * 1024 * 1024))).toBe(false);
    expect(written('MAX_SCENARIO_BYTES', 8 * 1024 * 1024)).toBe('8 MiB');
    expect(valueOf('2 ** 32 - 1')).toBe(4_294_967_295);
    expect(valueOf('`x`')).toBeNull();
  });
});
