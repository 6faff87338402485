/** `explore --json`: the search and its findings as data (stable key order, times in microseconds, no wall-clock values). */
import { tellStory } from '../checker/story.js';
import { focusViolation } from '../checker/violations.js';
import type { ScenarioExplore } from '../explore/explore-scenario.js';
import { replayCommand } from './explore-text.js';
import { boundedFaults, boundStatement, notClaimed, pctGuarantee } from '../explore/statement.js';

export function exploreToJson(e: ScenarioExplore): unknown {
  const s = e.scenario;
  const o = e.options;
  return {
    format: 1,
    kind: 'explore',
    scenario: { name: s.name, file: s.file, seed: s.seed, durationUs: s.durationUs },
    settings: {
      maxFaults: o.maxFaults,
      budget: o.budget,
      kinds: o.kinds,
      violation: e.conditions.map((c) => c.text),
      pct: o.pct,
      merge: o.merge,
      all: o.all,
    },
    variants: e.variants.map(({ result: r, witnesses }) => ({
      name: r.variant,
      result: witnesses.length > 0 ? 'violation' : boundedFaults(r, o.maxFaults) >= o.maxFaults ? 'bound' : 'partial',
      stoppedBy: r.stoppedBy,
      faultTemplates: r.templates.map((t) => ({ id: t.id, label: t.label, host: t.host, spanUs: t.spanUs, fault: t.spec })),
      templatesFromScenario: r.fromScenario,
      clientsInterchangeable: r.symmetric,
      baseInstants: r.baseInstants,
      schedules: r.schedules,
      distinctStates: r.distinctStates,
      levels: r.levels,
      pct: r.pct,
      boundedFaults: witnesses.length > 0 ? null : boundedFaults(r, o.maxFaults),
      statement: witnesses.length > 0 ? null : boundStatement(r, o.maxFaults),
      guarantee: witnesses.length > 0 ? null : pctGuarantee(r.pct),
      notClaimed: notClaimed(o.maxFaults, r.pct),
      violations: witnesses.map((w) => {
        const focus = focusViolation(w.run.violations);
        return {
          schedule: w.found.schedule.id,
          schedulesLikeIt: w.found.count,
          broken: w.broken,
          placedFaults: w.placedFaults,
          faults: w.faults.map((f) => ({ template: f.template, atUs: f.atUs, why: f.why })),
          order: w.order,
          replay: w.replay,
          replayCommand: replayCommand(e, r.variant, w),
          metrics: w.run.metrics,
          firstViolation: focus ? { kind: focus.kind, timeUs: focus.timeUs, subject: focus.subject, requests: focus.requests, summary: focus.summary, story: tellStory(focus, w.run.history).lines } : null,
        };
      }),
    })),
  };
}
