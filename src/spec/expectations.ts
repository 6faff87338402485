/** A scenario's `expect:` and `explore:` blocks, resolved: what is judged of the runs. */

export type Comparator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** `run`: judged on each run; the others summarise the runs of a sweep (p = a probability). */
export type Statistic = 'run' | 'p' | 'mean' | 'max' | 'min';

export interface Expectation {
  variant: string;
  metric: string;
  statistic: Statistic;
  /** For `p(metric <op> value)`: the condition whose probability is judged. */
  condition: { comparator: Comparator; value: number } | null;
  comparator: Comparator;
  value: number;
  /** As written in the file, for messages. */
  text: string;
  /** The value as written (`0`, `">= 1"`, `"<= 5s"`), to write the file back. */
  written: string | number;
  /** The key in the expect block (`oversold`, `p(oversold > 0)`), to locate it. */
  key: string;
  location: string;
}

/** A condition on a run's metrics: "stuck-time > 10s" (explore's violations). */
export interface MetricCondition {
  metric: string;
  comparator: Comparator;
  value: number;
  /** As written, normalised: "stuck-time > 10s". */
  text: string;
}

/** The scenario's `explore:` block: how `lock-sim explore` searches it unless flags say otherwise. */
export interface ExploreDefaults {
  faults: number | null;
  budget: number | null;
  /** What counts as a violation (empty: any broken safety invariant). */
  violation: MetricCondition[];
}

/**
 * `expect: { v: { explore: { violations: 0 } } }`: `check` runs explore on the variant (with
 * the expectation's faults, budget and violation, else the scenario's `explore:` block's) and
 * judges how many violations it found (it stops at the first, so 0 or 1).
 */
export interface ExploreExpectation {
  variant: string;
  faults: number | null;
  budget: number | null;
  /** null: the scenario's `explore: violation`. */
  violation: MetricCondition[] | null;
  comparator: Comparator;
  value: number;
  /** "explore violations == 0". */
  text: string;
  /** The entry as written, to write the file back. */
  written: { faults?: number; budget?: number; violation?: string | string[]; violations: string | number };
  location: string;
}
