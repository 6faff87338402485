/**
 * The documentation's examples, found, run and compared (test/docs/examples.test.ts) or
 * rewritten with what they print now (`npm run generate`).
 *
 * An example is a fenced code block whose first line is a shell prompt, `$ npx lock-sim ...`:
 * the lines after a prompt are what that command prints, and a block may hold several
 * prompts, run one after the other. A line that is exactly `...` stands for lines left out
 * (any number, at least one), so an example can show part of a long output honestly. Every
 * example runs in a new empty folder where `scenarios/` and `docs/` are the repository's, with NO_COLOR
 * set, `npx lock-sim` being the repository's build and every other command the shell's, so a
 * file an example writes (`init`, `--report`) lands in that folder.
 *
 * Commands in a code block without a prompt (```sh blocks of commands to type) are found too:
 * each `npx lock-sim ...` line runs and must not fail with exit 2 or more.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const GAP = '...';

/** The documentation pages: README, ARCHITECTURE, CONTRIBUTING and docs/**. */
export function docPages(root = ROOT) {
  const under = (dir) =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...under('docs').sort()];
}

/**
 * The fenced code blocks of a page, with their position: `{ lang, lines, start, end }`, where
 * `start` and `end` are the indexes of the fence lines.
 */
export function codeBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)((?:\s+[a-z]+=\S+)*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const info = Object.fromEntries([...open[3].matchAll(/([a-z]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    let j = i + 1;
    while (j < lines.length && lines[j] !== fence) j++;
    blocks.push({ lang: open[2], file: info.file ?? null, select: info.lines ?? null, lines: lines.slice(i + 1, j), start: i, end: j });
    i = j;
  }
  return blocks;
}

const PROMPT = /^\$ (.*)$/;

/** A block that starts with a prompt, split into steps: `{ command, expected: string[] }`. */
export function exampleSteps(block) {
  if (!PROMPT.test(block.lines[0] ?? '')) return null;
  const steps = [];
  for (const line of block.lines) {
    const prompt = PROMPT.exec(line);
    if (prompt) steps.push({ command: prompt[1], expected: [] });
    else steps[steps.length - 1].expected.push(line);
  }
  return steps;
}

/**
 * The lines `spec` selects of `lines` (1-based ranges, `40-` up to the end), with a `...`
 * wherever lines are left out.
 */
export function selectLines(lines, spec) {
  const out = [];
  let next = 1;
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-');
    const from = Number(a);
    const to = b === undefined ? from : b === '' ? lines.length : Math.min(Number(b), lines.length);
    if (from > next) out.push(GAP);
    out.push(...lines.slice(from - 1, to));
    next = to + 1;
  }
  if (next <= lines.length) out.push(GAP);
  return out;
}

/** Whether an example shows what its command printed: its selection exactly, or lines that fit. */
export function shows(block, expected, actual) {
  if (block.select !== null) return expected.join('\n') === selectLines(actual, block.select).join('\n');
  return fits(expected, actual);
}

/** The examples of every page: `{ page, line, steps, block }`. */
export function findExamples(root = ROOT) {
  return docPages(root).flatMap((page) =>
    codeBlocks(readFileSync(join(root, page), 'utf8')).flatMap((block) => {
      const steps = exampleSteps(block);
      return steps ? [{ page, line: block.start + 1, steps, block }] : [];
    }),
  );
}

/** Blocks that show a file of the repository: `{ page, line, file, lines }`. */
export function findFileBlocks(root = ROOT) {
  return docPages(root).flatMap((page) =>
    codeBlocks(readFileSync(join(root, page), 'utf8'))
      .filter((b) => b.file !== null)
      .map((b) => ({ page, line: b.start + 1, file: b.file, lines: b.lines })),
  );
}

/** `npx lock-sim ...` lines of code blocks that are not examples (commands to type). */
export function findCommands(root = ROOT) {
  return docPages(root).flatMap((page) =>
    codeBlocks(readFileSync(join(root, page), 'utf8')).flatMap((block) =>
      exampleSteps(block) !== null || !['sh', 'bash', 'shell', ''].includes(block.lang)
        ? []
        : block.lines.flatMap((l, i) => {
            const at = l.indexOf('npx lock-sim ');
            return at === -1 || l.trimStart().startsWith('#') ? [] : [{ page, line: block.start + 2 + i, command: l.slice(at).replace(/\s+#.*$/, '') }];
          }),
    ),
  );
}

/**
 * A new folder laid out like a project that installed lock-sim: `scenarios/` and `docs/` are
 * the repository's, and node_modules/ holds the repository's dependencies (the own-code
 * scenarios import npm lock libraries) and lock-sim itself, which `npx lock-sim` runs from
 * there (symlinks kept), so what it writes about its own location (init's schema line) is
 * what a user sees: node_modules/lock-sim/....
 */
export function exampleFolder(root = ROOT) {
  const dir = mkdtempSync(join(tmpdir(), 'lock-sim-doc-'));
  symlinkSync(join(root, 'scenarios'), join(dir, 'scenarios'));
  symlinkSync(join(root, 'docs'), join(dir, 'docs'));
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '.bin') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(root, join(modules, 'lock-sim'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const cli = join(modules, 'lock-sim', 'bin', 'lock-sim.js');
  // `npx lock-sim` is the repository's build: npx itself would start slower and could fetch.
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = lock-sim ]; then shift; exec node --preserve-symlinks --preserve-symlinks-main "${cli}" "$@"; fi\necho "docs example: only npx lock-sim runs here" >&2; exit 127\n`, { mode: 0o755 });
  return dir;
}

/**
 * Runs one command of an example in `dir` (bash, so `&&` and pipes work as a reader types
 * them) and returns `{ status, stdout, stderr }`.
 */
export function runCommand(command, dir) {
  const env = { ...process.env, NO_COLOR: '1', PATH: `${join(dir, '.bin')}:${process.env.PATH}` };
  delete env.FORCE_COLOR;
  delete env.CI;
  const r = spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Output lines without the trailing empty line a final newline leaves. */
export function outputLines(stdout) {
  const lines = stdout.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\s+$/, ''));
}

/**
 * Whether `actual` fits `expected`: equal line for line, where a `...` line of `expected`
 * stands for one or more lines of `actual`. Trailing spaces do not count.
 */
export function fits(expected, actual) {
  const want = expected.map((l) => l.replace(/\s+$/, ''));
  const memo = new Map();
  const go = (i, j) => {
    const key = i * (actual.length + 1) + j;
    if (memo.has(key)) return memo.get(key);
    let ok;
    if (i === want.length) ok = j === actual.length;
    else if (want[i] === GAP) {
      ok = false;
      for (let k = j + 1; k <= actual.length && !ok; k++) ok = go(i + 1, k);
    } else ok = j < actual.length && want[i] === actual[j] && go(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

/**
 * What the block should say now: each step's output, the lines its selection names; without
 * one, the old lines while they still fit, else the whole new output (to be cut again with
 * `lines=` by whoever reads the diff).
 */
export function rewrite(block, steps, outputs) {
  const lines = [];
  steps.forEach((step, n) => {
    lines.push(`$ ${step.command}`);
    const actual = outputs[n];
    if (block.select !== null) lines.push(...selectLines(actual, block.select));
    else lines.push(...(fits(step.expected, actual) ? step.expected : actual));
  });
  return lines;
}

/** Runs every step of an example in one new folder; returns each step's output lines and status. */
export function runExample(example, root = ROOT) {
  const dir = exampleFolder(root);
  try {
    return example.steps.map((step) => {
      const r = runCommand(step.command, dir);
      return { status: r.status, lines: outputLines(r.stdout), stderr: r.stderr };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run generate`: every file shown whole read again, every example's output written again from a run. */
function updateAll(root = ROOT) {
  let changed = 0;
  for (const page of docPages(root)) {
    const path = join(root, page);
    // Files shown whole first (their blocks may change length), then the examples, from the new text.
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const block of codeBlocks(lines.join('\n')).filter((b) => b.file !== null).reverse()) {
      const now = readFileSync(join(root, block.file), 'utf8').replace(/\n$/, '').split('\n');
      if (now.join('\n') === block.lines.join('\n')) continue;
      lines.splice(block.start + 1, block.lines.length, ...now);
      changed++;
      process.stdout.write(`updated ${relative(root, path)}:${block.start + 1} (${block.file})\n`);
    }
    writeFileSync(path, lines.join('\n'));
    const examples = findExamples(root).filter((e) => e.page === page).reverse();
    for (const example of examples) {
      const results = runExample(example, root);
      const fresh = rewrite(example.block, example.steps, results.map((r) => r.lines));
      const old = lines.slice(example.block.start + 1, example.block.end);
      if (fresh.join('\n') !== old.join('\n')) {
        lines.splice(example.block.start + 1, old.length, ...fresh);
        changed++;
        process.stdout.write(`updated ${relative(root, path)}:${example.line}\n`);
      }
    }
    writeFileSync(path, lines.join('\n'));
  }
  process.stdout.write(`${changed} block(s) updated\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) updateAll();
