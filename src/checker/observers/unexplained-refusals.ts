/**
 * The "lock busy" answers busy-while-free found no holder for: when each one's request
 * arrived (liveness counts those of its judged period) and, for the failures table, how many
 * said each text, bounded as diagnostics.ts bounds its groups.
 */
import { clip, MAX_GROUPS, type FailureGroup } from './diagnostics.js';

/** A refused acquire: from its invocation to its answer. */
export interface Refusal {
  fromUs: number;
  toUs: number;
  request: string;
  invokeUs: number;
  /** What the lock said when it refused (the request's first error text), if anything. */
  text: string | undefined;
}

/** How the failures table names them. */
export const REFUSED_WHILE_FREE = '"lock busy" while nobody held the lock';

export class UnexplainedRefusals {
  private readonly invokeUs: number[] = [];
  private readonly groups = new Map<string, FailureGroup>();
  private others = 0;

  add(r: Refusal): void {
    this.invokeUs.push(r.invokeUs);
    const text = r.text === undefined ? REFUSED_WHILE_FREE : `${REFUSED_WHILE_FREE}: ${clip(r.text)}`;
    const g = this.groups.get(text);
    if (g === undefined) {
      if (this.groups.size < MAX_GROUPS) this.groups.set(text, { outcome: 'lock-busy', text, count: 1, firstRequest: r.request, firstUs: r.toUs });
      else this.others++;
      return;
    }
    g.count++;
    // Decided out of answer order (a refusal waits for the works open at its answer): the group's first is the earliest answer.
    if (r.toUs < g.firstUs) {
      g.firstUs = r.toUs;
      g.firstRequest = r.request;
    }
  }

  /** Of requests invoked at `sinceUs` or later. */
  count(sinceUs: number): number {
    let n = 0;
    for (const at of this.invokeUs) if (at >= sinceUs) n++;
    return n;
  }

  /** By text, as the failures table lists failed requests; `others`: those past MAX_GROUPS texts. */
  byText(): { groups: FailureGroup[]; others: number } {
    return { groups: [...this.groups.values()], others: this.others };
  }
}
