/**
 * "Lock busy" answers given while nobody held the lock: the lock failing, not the shop saying
 * no (liveness.ts counts them with the failures). A refusal is explained by a holder when,
 * at some instant of the refused acquire (from its invocation to its answer), the key had as
 * many holders as it admits (1, or a semaphore's permits). A holder counts from the
 * invocation of its acquire to the end of its work under the lock (its release answered, its
 * request ended or its process died): the server refuses a contender only while a holder's
 * key is there, which is inside that span whatever the latencies (its SET lands after it was
 * sent, its DEL before its answer comes back). What is left unexplained is a key nobody works
 * under: contenders' leftover keys that block one another (node-redlock 5.0.0-beta.2's
 * attempts keep their keys until the acquire gives up), a dead holder's key with no TTL, an
 * unlock the server does not know.
 *
 * Judged at the end, from spans collected as requests end (holders may end after the
 * refusals they explain).
 */

interface Span {
  fromUs: number;
  toUs: number;
}

interface Refusal extends Span {
  invokeUs: number;
}

export class BusyWhileFree {
  private readonly holds = new Map<string, Span[]>();
  private readonly refusals = new Map<string, Refusal[]>();

  /** `limit`: how many may hold a key at once. */
  constructor(private readonly limit: number) {}

  held(key: string, fromUs: number, toUs: number): void {
    listOf(this.holds, key).push({ fromUs, toUs });
  }

  refused(key: string, fromUs: number, toUs: number, invokeUs: number): void {
    listOf(this.refusals, key).push({ fromUs, toUs, invokeUs });
  }

  /** The refusals of requests invoked at `sinceUs` or later that no holder explains. */
  count(sinceUs: number): number {
    let unexplained = 0;
    for (const [key, refusals] of this.refusals) {
      const full = fullSpans(this.holds.get(key) ?? [], this.limit);
      for (const r of refusals) if (r.invokeUs >= sinceUs && !overlapsAny(full, r)) unexplained++;
    }
    return unexplained;
  }
}

function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = []));
  return list;
}

/** The maximal spans (closed, ascending) during which at least `limit` holds overlap. */
function fullSpans(holds: readonly Span[], limit: number): Span[] {
  // Starts before ends at the same instant: spans that touch overlap (closed spans).
  const events = holds.flatMap((h) => [
    { atUs: h.fromUs, delta: 1 },
    { atUs: h.toUs, delta: -1 },
  ]);
  events.sort((a, b) => a.atUs - b.atUs || b.delta - a.delta);
  const full: Span[] = [];
  let count = 0;
  let fromUs = 0;
  for (const e of events) {
    const before = count;
    count += e.delta;
    if (before < limit && count >= limit) fromUs = e.atUs;
    else if (before >= limit && count < limit) full.push({ fromUs, toUs: e.atUs });
  }
  return full;
}

/** Whether span `s` meets any of the ascending, disjoint `spans` (binary search on their ends). */
function overlapsAny(spans: readonly Span[], s: Span): boolean {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].toUs < s.fromUs) lo = mid + 1;
    else hi = mid;
  }
  return lo < spans.length && spans[lo].fromUs <= s.toUs;
}
