/**
 * Mutations of a scenario file, driven by plain numbers so that fast-check can draw and
 * shrink them: a value replaced by a hostile one, a field removed or added, a list entry
 * doubled, or a few characters of YAML syntax inserted or cut.
 */
import { parse, stringify } from 'yaml';

/** Values that broke, or nearly broke, lock-sim when found in any field. */
export const HOSTILE_VALUES: unknown[] = [
  0, -1, 1, 1.5, 1e9, 2 ** 53, -0.001, '', 'x', '0', '5s', '-5s', '0us', '1h', '1000000/s', '0.001/s',
  'uniform(0us, 0us)', 'uniform(5s, 1s)', 'exp(0us)', 'lognormal(1ms, 1h)', 'forever', true, null, [], {},
  'a'.repeat(150), 'ctl\u0001\u0008name', '$(echo pwned)', 'lease 10s', [1, 2, 3], { kind: 'gc-pause' },
];

/** Field names to add: real ones (in the wrong place, or twice) and near misses. */
const FIELD_NAMES = ['users', 'think', 'arrival', 'requests', 'lease', 'wait', 'retry-interval', 'count', 'rate', 'at', 'seed', 'kind', 'replicas', 'topology', 'p99', 'arival', 'leese', 'queue-limit', 'workers', 'clients'];

/** Characters and fragments of YAML syntax to insert into the text. */
const SYNTAX = [':', '*', '&a ', '*a', '{', '}', '[', ']', '\r', '\t', '- ', '#', '"', "'", '\n', '\n---\n', '!!binary ', '<<: *a\n', '? '];

type Path = Array<string | number>;

/** Every path to a node of `data`, in document order (the root is []). */
function paths(data: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(data)) data.forEach((v, i) => paths(v, [...at, i], out));
  else if (data !== null && typeof data === 'object') for (const [k, v] of Object.entries(data)) paths(v, [...at, k], out);
  return out;
}

function parentOf(data: unknown, path: Path): { parent: Record<string | number, unknown> | unknown[]; key: string | number } | null {
  if (path.length === 0) return null;
  let node = data as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
  return { parent: node, key: path[path.length - 1] };
}

/** One mutation, chosen and placed by three numbers. Returns the new text. */
export function mutate(text: string, op: number, where: number, what: number): string {
  const kind = op % 6;
  if (kind >= 4) {
    const at = where % (text.length + 1);
    if (kind === 4) return text.slice(0, at) + SYNTAX[what % SYNTAX.length] + text.slice(at);
    return text.slice(0, at) + text.slice(at + 1 + (what % 8));
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch {
    return text.slice(0, where % (text.length + 1));
  }
  const all = paths(data);
  const path = all[where % all.length];
  const spot = parentOf(data, path);
  if (spot === null) return stringify(HOSTILE_VALUES[what % HOSTILE_VALUES.length]);
  const { parent, key } = spot;
  if (kind === 0) (parent as Record<string | number, unknown>)[key] = HOSTILE_VALUES[what % HOSTILE_VALUES.length];
  else if (kind === 1) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, unknown>)[key as string];
  } else if (kind === 2) {
    const target = (parent as Record<string | number, unknown>)[key];
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      (target as Record<string, unknown>)[FIELD_NAMES[what % FIELD_NAMES.length]] = HOSTILE_VALUES[(what >> 5) % HOSTILE_VALUES.length];
    } else (parent as Record<string | number, unknown>)[key] = { [FIELD_NAMES[what % FIELD_NAMES.length]]: target };
  } else {
    const target = (parent as Record<string | number, unknown>)[key];
    if (Array.isArray(target) && target.length > 0) target.push(...Array<unknown>(1 + (what % 3)).fill(target[what % target.length]));
    else if (Array.isArray(parent)) parent.push(parent[key as number]);
  }
  return stringify(data, { lineWidth: 0 });
}
