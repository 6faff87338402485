/**
 * Files and values that hung, ran out of memory, overflowed the stack or flooded stderr
 * (issue "Robustness of what was added since the last hardening"): each is refused, located,
 * next to the nearest input that must still load.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { decodeText, firstInvalidUtf8 } from '../../src/scenario/input-file.js';
import { MAX_SAMPLE_FILE_BYTES, MAX_SAMPLE_FILE_LINES } from '../../src/scenario/distribution-files.js';
import { MAX_SCENARIO_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES } from '../../src/scenario/yaml-document.js';
import { MAX_DISTRIBUTION_DEPTH, parseDistribution } from '../../src/scenario/value-parsers.js';
import { boundedReport } from '../../src/spec/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-limits-'));
const text = (think = '1ms', extra = '') => `name: t
duration: 2s
stock: { sku: 1, available: 5 }
workload: { users: 1, think: ${think} }
${extra}
variants:
  a: { lock: lua-unlock }
`;

function errorOf(load: () => unknown): string {
  try {
    load();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the scenario to be refused');
}
const write = (name: string, content: string | Buffer): string => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};
/** A file of `bytes` NULs that takes no disk (sparse). */
const sparse = (name: string, bytes: number): string => {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return file;
};
const fifo = (name: string): string | null => {
  const file = join(dir, name);
  try {
    execFileSync('mkfifo', [file]);
    return file;
  } catch {
    return null; // no mkfifo (Windows): nothing to test
  }
};

describe('what a scenario path may be', () => {
  it('refuses a FIFO, a character device and a folder at once, without reading them', () => {
    const pipe = fifo('pipe.yaml');
    if (pipe) expect(errorOf(() => loadScenario(pipe))).toBe(`${pipe}: (top level): is a named pipe (FIFO), not a scenario file: give the path of a regular file`);
    if (existsSync('/dev/zero')) expect(errorOf(() => loadScenario('/dev/zero'))).toBe('/dev/zero: (top level): is a character device, not a scenario file: give the path of a regular file');
    expect(errorOf(() => loadScenario(dir))).toContain('is a folder, not a scenario file');
  });

  it('refuses a file over the size limit before reading it, and loads a regular file', () => {
    const huge = sparse('huge.yaml', 300 * 1024 * 1024);
    expect(errorOf(() => loadScenario(huge))).toBe(`${huge}: (top level): is 300 MiB, over the limit of 8 MiB for a scenario file`);
    expect(MAX_SCENARIO_BYTES).toBe(8 * 1024 * 1024);
    expect(loadScenario(write('ok.yaml', text())).name).toBe('t');
  });
});

describe('what a scenario file may hold', () => {
  const u16 = (s: string, le: boolean): Buffer => {
    const b = Buffer.from(`\ufeff${s}`, 'utf16le');
    if (!le) b.swap16();
    return b;
  };

  it('names UTF-16 and UTF-32 (with or without a byte order mark) instead of reading them', () => {
    expect(errorOf(() => loadScenario(write('le.yaml', u16(text(), true))))).toContain('is UTF-16 (little-endian) text; a scenario file is read as UTF-8: save it as UTF-8');
    expect(errorOf(() => loadScenario(write('be.yaml', u16(text(), false))))).toContain('is UTF-16 (big-endian) text');
    expect(errorOf(() => loadScenario(write('nobom.yaml', Buffer.from(text(), 'utf16le'))))).toContain('is UTF-16 (little-endian) text');
    const u32 = Buffer.alloc(text().length * 4);
    [...text()].forEach((c, i) => u32.writeUInt32LE(c.codePointAt(0) as number, i * 4));
    expect(errorOf(() => loadScenario(write('u32.yaml', u32)))).toContain('is UTF-32 (little-endian) text');
  });

  it('locates a NUL byte and a byte that is not UTF-8', () => {
    expect(errorOf(() => loadScenario(write('nul.yaml', `${text()}# \u0000\n`)))).toContain('holds a NUL byte at line 8, column 3: not a text file');
    expect(errorOf(() => loadScenario(write('latin1.yaml', Buffer.from(`${text()}# caf\xe9\n`, 'latin1'))))).toContain('is not UTF-8 text: byte 0xe9 at line 8, column 6 (save it as UTF-8)');
  });

  it('reads UTF-8, with or without a byte order mark, whatever its characters', () => {
    expect(loadScenario(write('utf8.yaml', `${text()}# café 库存 🔒\n`)).name).toBe('t');
    expect(loadScenario(write('bom.yaml', `\ufeff${text()}`)).name).toBe('t');
  });

  it('finds the first byte of a malformed UTF-8 sequence (RFC 3629): overlong, surrogate, cut short, above U+10FFFF', () => {
    const at = (...bytes: number[]) => firstInvalidUtf8(Uint8Array.from(bytes));
    expect(at(0x61, 0xc0, 0x80)).toBe(1);
    expect(at(0x61, 0xed, 0xa0, 0x80)).toBe(1);
    expect(at(0x61, 0xe4, 0xbd)).toBe(1);
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0);
    expect(at(0xe4, 0xbd, 0xa0, 0xf0, 0x9f, 0x94, 0x92)).toBe(-1);
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), 'x')).toEqual({ ok: true, text: 'a' });
  });
});

describe('the size of the YAML', () => {
  it(`refuses more than ${MAX_YAML_NODES} nodes where the count passes, before building a document`, () => {
    const dense = `a: [${'0,'.repeat(MAX_YAML_NODES)}0]\n`;
    expect(errorOf(() => parseScenario(dense, 'f.yaml'))).toMatch(/^f\.yaml:1:\d+: \(top level\): YAML: more than 500,000 nodes \(values, lists and mappings\), the limit of a scenario file$/);
  });

  it('loads 20,000 variants: keys repeated in a mapping are found in one pass', { timeout: 60_000 }, () => {
    // yaml's own check compared each key with every earlier one: 100,000 variants took minutes.
    const variants = Array.from({ length: 20_000 }, (_, i) => `  v${i}: { lock: lua-unlock }`).join('\n');
    const s = parseScenario(text().replace('  a: { lock: lua-unlock }', variants), 'f.yaml');
    expect(s.variants).toHaveLength(20_000);
  });

  it('is read by yaml-document.ts alone: no other module of src/ parses YAML text (with yaml\'s quadratic key check or without the limits)', () => {
    const readers: string[] = [];
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /import \{[^}]*\b(parse|parseDocument|parseAllDocuments|Parser|Composer|Lexer)\b[^}]*\} from 'yaml'/.test(readFileSync(path, 'utf8'))) readers.push(path);
      }
    };
    walk('src');
    expect(readers).toEqual([join('src', 'scenario', 'yaml-document.ts')]);
  });

  it('refuses a key given twice in one mapping at the second, and takes keys that only look alike', () => {
    expect(errorOf(() => parseScenario(text().replace('  a: { lock: lua-unlock }', '  a: { lock: lua-unlock }\n  b: { lock: none }\n  a: { lock: none }'), 'f.yaml'))).toBe(
      'f.yaml:9:3: (top level): YAML: the key "a" appears twice in this mapping (map keys must be unique)',
    );
    const s = parseScenario(text().replace('  a: { lock: lua-unlock }', '  1: { lock: lua-unlock }\n  "01": { lock: none }\n  a: { lock: none }'), 'f.yaml');
    expect(s.variants.map((v) => v.name)).toEqual(['1', '01', 'a']);
  });

  it(`refuses nesting deeper than ${MAX_YAML_DEPTH} levels, and nesting too deep for the parser's stack, located`, () => {
    const nest = (n: number) => `${text()}x: ${'['.repeat(n)}${']'.repeat(n)}\n`;
    expect(errorOf(() => parseScenario(nest(MAX_YAML_DEPTH), 'f.yaml'))).toBe(`f.yaml:8:${MAX_YAML_DEPTH + 3}: (top level): YAML: nested deeper than ${MAX_YAML_DEPTH} levels`);
    expect(errorOf(() => parseScenario(nest(MAX_YAML_DEPTH - 1), 'f.yaml'))).toMatch(/unknown field "x"/);
    expect(errorOf(() => parseScenario(nest(50_000), 'f.yaml'))).toMatch(/^f\.yaml:8:\d+: \(top level\): YAML: nested too deeply to read \(a scenario nests at most 64 levels\)$/);
    const compact = `${text()}x:\n${'- '.repeat(50_000)}z\n`;
    expect(errorOf(() => parseScenario(compact, 'f.yaml'))).toMatch(/^f\.yaml:9:\d+: \(top level\): YAML: nested too deeply to read/);
  });
});

describe('distributions', () => {
  const mixtures = (depth: number): string => {
    let d = '1ms';
    for (let i = 0; i < depth; i++) d = `mixture(50%: ${d}, 50%: 2ms)`;
    return d;
  };

  it('refuses a mixture nested 2,000 deep (it overflowed the stack), and reads one nested to the limit', () => {
    const deep = parseDistribution(mixtures(2_000));
    expect(deep.ok ? 'parsed' : deep.message).toMatch(/^parentheses nest 2000 deep in "mixture\(50%: mixture.*…" \(48,003 characters\); a distribution nests at most 10 \(mixtures of mixtures\)$/);
    expect(parseDistribution(mixtures(MAX_DISTRIBUTION_DEPTH)).ok).toBe(true);
    expect(parseDistribution(mixtures(MAX_DISTRIBUTION_DEPTH + 1)).ok).toBe(false);
    expect(errorOf(() => parseScenario(text(`"${mixtures(2_000)}"`), 'f.yaml'))).toMatch(/^f\.yaml:4:30: workload\.think: parentheses nest 2000 deep/);
  });

  it('says "unbalanced parentheses" of a quoted value, and keeps the { ... } hint for what a flow mapping cut', () => {
    const unbalanced = (v: string) => {
      const r = parseDistribution(v);
      return r.ok ? 'parsed' : r.message;
    };
    expect(unbalanced('mixture(95%: uniform(1s, 2s), 5%: 8s')).toBe('unbalanced parentheses in "mixture(95%: uniform(1s, 2s), 5%: 8s": 2 "(" and 1 ")"');
    expect(unbalanced('mixture(95%: uniform(1s, 2s)), 5%: 8s)')).toBe('unbalanced parentheses in "mixture(95%: uniform(1s, 2s)), 5%: 8s)": 2 "(" and 3 ")", a ")" before its "("');
    expect(errorOf(() => parseScenario(text('uniform(1s, 2s)'), 'f.yaml'))).toContain('workload.think: found "uniform(1s": inside a { ... } mapping the comma splits the value; quote it');
    expect(parseScenario(text('"uniform(1s, 2s)"'), 'f.yaml').workload.arrival.kind).toBe('closed');
  });

  it('refuses a dependency named like a built-in step (it would never be called), and takes any other name', () => {
    const steps = (deps: string, steps: string) => text('1ms', `dependencies: { ${deps} }`).replace('think: 1ms }', `think: 1ms, steps: [${steps}] }`);
    expect(errorOf(() => parseScenario(steps('lock: 5ms, read: 1ms', 'lock, read, deduct, order, unlock'), 'f.yaml'))).toBe(
      [
        'f.yaml:5:23: dependencies.lock: a dependency cannot be named "lock": that is a built-in step (lock, check-order, read, deduct, order, unlock), so a step "lock" would run the built-in and never call it; rename it, e.g. "lock-service"',
        'f.yaml:5:34: dependencies.read: a dependency cannot be named "read": that is a built-in step (lock, check-order, read, deduct, order, unlock), so a step "read" would run the built-in and never call it; rename it, e.g. "read-service"',
      ].join('\n'),
    );
    const s = parseScenario(steps('lock-service: 5ms', 'lock, lock-service, read, deduct, order, unlock'), 'f.yaml');
    expect(s.workload.steps).toContainEqual({ call: 'lock-service' });
  });
});

describe('sample files', () => {
  const withSamples = (name: string, content: string | Buffer | null, shape = 'empirical'): string => {
    if (content !== null) write(name, content);
    return write(`s-${name.replace(/\W/g, '-')}.yaml`, text('1ms', `dependencies: { risk: "${shape}(${name})" }`).replace('think: 1ms }', 'think: 1ms, steps: [lock, read, risk, deduct, order, unlock] }'));
  };

  it('refuses a FIFO and /dev/zero as sample or bucket files instead of waiting or reading forever', () => {
    const pipe = fifo('pipe.csv');
    if (pipe) expect(errorOf(() => loadScenario(withSamples('pipe.csv', null)))).toContain('dependencies.risk: pipe.csv: is a named pipe (FIFO), not a sample file');
    if (existsSync('/dev/zero')) {
      expect(errorOf(() => loadScenario(withSamples('/dev/zero', null)))).toContain('dependencies.risk: /dev/zero: is a character device, not a sample file');
      expect(errorOf(() => loadScenario(withSamples('/dev/zero', null, 'histogram')))).toContain('/dev/zero: is a character device');
    }
  });

  it('refuses a file over the byte limit before reading it, and one over the line limit while reading', () => {
    sparse('huge.csv', 200 * 1024 * 1024);
    expect(errorOf(() => loadScenario(withSamples('huge.csv', null)))).toContain('dependencies.risk: huge.csv: is 200 MiB, over the limit of 32 MiB for a sample file');
    expect(MAX_SAMPLE_FILE_BYTES).toBe(32 * 1024 * 1024);
    expect(errorOf(() => loadScenario(withSamples('lines.csv', '\n'.repeat(MAX_SAMPLE_FILE_LINES + 1))))).toContain('lines.csv: more than 2,000,000 lines, the limit of a sample file');
    const s = loadScenario(withSamples('ok.csv', `${'\n'.repeat(MAX_SAMPLE_FILE_LINES - 2)}5ms\n`));
    expect(s.dependencies[0].latency).toMatchObject({ samplesUs: [5_000] });
  });

  it('names a UTF-16 sample file and cuts a 5 MB bad line to a readable message', () => {
    expect(errorOf(() => loadScenario(withSamples('wide.csv', Buffer.from('\ufeff200ms\n', 'utf16le'))))).toContain('wide.csv: is UTF-16 (little-endian) text; a sample file is read as UTF-8: save it as UTF-8');
    const msg = errorOf(() => loadScenario(withSamples('long.csv', `200ms\n${'x'.repeat(5_000_000)}\n`)));
    expect(msg).toMatch(/long\.csv:2: expected a duration like 250us, 800ms, 5s or 2m, found "x{120}…" \(5,000,000 characters\)$/);
    expect(msg.length).toBeLessThan(400);
  });

  it('shares one array of samples between loads of the same unchanged file, and reads it again once it changes', () => {
    const file = withSamples('shared.csv', '1ms\n2ms\n');
    const a = loadScenario(file).dependencies[0].latency as { samplesUs: number[] };
    const b = loadScenario(file).dependencies[0].latency as { samplesUs: number[] };
    expect(b.samplesUs).toBe(a.samplesUs);
    write('shared.csv', '1ms\n2ms\n3ms\n');
    expect((loadScenario(file).dependencies[0].latency as { samplesUs: number[] }).samplesUs).toEqual([1_000, 2_000, 3_000]);
  });
});

describe('messages', () => {
  it('cut a 1 MB value to a readable length with its size, in the message and in the field path', () => {
    const msg = errorOf(() => parseScenario(text().replace('name: t', `name: t\ndescription: "${'d'.repeat(1_000_000)}"`), 'f.yaml'));
    expect(msg).toBe(`f.yaml:2:14: description: expected at most 1000, found "${'d'.repeat(120)}…" (1,000,000 characters)`);
    const key = errorOf(() => parseScenario(text().replace('name: t', `name: t\n? ${'k'.repeat(1_000_000)}\n: 1`), 'f.yaml'));
    expect(key.length).toBeLessThan(600);
    expect(key).toContain('(1,000,000 characters)');
  });

  it('leave a short value whole', () => {
    expect(errorOf(() => parseScenario(text('"soon"'), 'f.yaml'))).toContain('found "soon"');
  });

  it('are printed at most 200 lines of 2,000 characters: a file with 5,000 bad faults says how many more', () => {
    const faults = `faults:\n${'  - { kind: gc-pause, client: 1, at: 1s, duration: forever }\n'.repeat(5_000)}`;
    const report = boundedReport(errorOf(() => parseScenario(text('1ms', faults), 'f.yaml')));
    const lines = report.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[0]).toMatch(/^f\.yaml:6:52: faults\[0\]\.duration: expected a duration .*, found "forever"$/);
    expect(lines[200]).toBe('... and 4,800 more lines');
    expect(boundedReport(`a\n${'b'.repeat(3_000)}`)).toBe(`a\n${'b'.repeat(2_000)}… (message of 3,000 characters cut)`);
    expect(boundedReport('one line')).toBe('one line');
  });
});
