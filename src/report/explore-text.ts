/** The human report of `lock-sim explore`: what was searched, then per variant a witness or the bounded statement. */
import type { ChalkInstance } from 'chalk';
import { tellStory } from '../checker/story.js';
import { focusViolation } from '../checker/violations.js';
import { formatMicros } from '../engine/time.js';
import { formatMetric, metricByName } from '../checker/metric-names.js';
import type { ScenarioExplore, VariantExplore } from '../explore/explore-scenario.js';
import { boundStatement, exactTime, instantsText, levelsText, notClaimed, pctGuarantee } from '../explore/statement.js';
import { describeViolation } from '../explore/violation.js';
import type { Witness } from '../explore/witness.js';
import { exploreReplayCommand } from '../sweep/explore-replay.js';

/** The command that replays a witness: the same explore, one schedule. */
export function replayCommand(e: ScenarioExplore, variant: string, w: Witness): string {
  return exploreReplayCommand(e.scenario.file, e.scenario.seed, variant, e.options.kinds, e.options.conditions, w.replay, e.scenario.explore?.violation ?? []);
}

/** "stuck-time > 10s (measured 39s)". */
export function brokenText(w: Witness): string {
  return w.broken
    .map((b) => {
      const metric = b.split(' ')[0];
      const def = metricByName.get(metric);
      return def ? `${b} (measured ${formatMetric(metric, def.read(w.run.metrics))})` : b;
    })
    .join(', ');
}

export function faultLines(v: VariantExplore, w: Witness): string[] {
  if (w.faults.length === 0) return ['no fault: the run breaks without one'];
  return w.faults.map((f) => {
    const t = v.result.templates.find((x) => x.id === f.template);
    return `#${f.template} ${t?.label ?? '?'} at ${exactTime(f.atUs)}, ${f.why}`;
  });
}

export function orderText(w: Witness): string {
  return w.order === null ? 'events of one instant in the order they were scheduled' : `PCT schedule ${w.order.seed} (depth ${w.order.depth}, change points drawn from ${w.order.steps} steps)`;
}

function renderWitness(e: ScenarioExplore, v: VariantExplore, w: Witness, color: ChalkInstance): string[] {
  const out: string[] = [];
  const where = w.found.schedule.id;
  const shrunk = w.placedFaults > w.faults.length ? `; ${w.placedFaults} faults placed, ${w.faults.length} needed` : '';
  const count = w.found.count > 1 ? ` (${w.found.count} schedules broke it this way)` : '';
  out.push(color.red(`${v.result.variant}: VIOLATION at schedule ${where}${count}: ${brokenText(w)}${shrunk}`));
  for (const line of faultLines(v, w)) out.push(`  fault: ${line}`);
  out.push(`  order: ${orderText(w)}`);
  const focus = focusViolation(w.run.violations);
  if (focus) {
    const story = tellStory(focus, w.run.history);
    out.push(`  ${story.headline}`);
    for (const line of story.lines) out.push(`  ${formatMicros(line.timeUs).padStart(9)}  ${line.who.padEnd(16)} ${line.what}`);
  }
  out.push(`  replay: ${replayCommand(e, v.result.variant, w)}`);
  return out;
}

export function renderExplore(e: ScenarioExplore, color: ChalkInstance): string {
  const s = e.scenario;
  const o = e.options;
  const out: string[] = [];
  out.push(color.bold(s.name) + `  seed ${s.seed}, ${formatMicros(s.durationUs)} simulated; explore: up to ${o.maxFaults} fault${o.maxFaults === 1 ? '' : 's'}, budget ${o.budget} schedules per variant`);
  const first = e.variants[0]?.result;
  if (first) {
    const from = first.fromScenario ? 'from the scenario' : `the default set for ${s.redis.topology}`;
    out.push(`fault kinds (${from}): ${first.templates.map((t) => `#${t.id} ${t.label}`).join(', ') || 'none'}`);
  }
  out.push(`violation: ${describeViolation(e.conditions)}`);
  for (const v of e.variants) {
    const r = v.result;
    out.push('');
    if (v.witnesses.length === 0) {
      out.push(color.green(`${r.variant}: ${boundStatement(r, o.maxFaults)}`));
    } else {
      v.witnesses.forEach((w, i) => {
        if (i > 0) out.push('');
        out.push(...renderWitness(e, v, w, color));
      });
    }
    out.push(color.dim(`  searched: ${instantsText(r)}; ${levelsText(r)}; ${r.schedules} schedules, ${r.distinctStates} distinct states${r.symmetric ? ' (clients interchangeable)' : ''}`));
    if (v.witnesses.length === 0) {
      const g = pctGuarantee(r.pct);
      if (g) out.push(color.dim(`  ${g}`));
      out.push(color.dim(`  ${notClaimed(o.maxFaults, r.pct)}`));
    }
  }
  return out.join('\n');
}
