/**
 * Progress of long runs (runs done, runs/s, ETA) on stderr. On a terminal, a bar redrawn in
 * place; elsewhere (a CI log, a file), a line every PROGRESS_LINE_SECONDS of wall time, so a
 * job that runs for minutes shows it is alive without filling its log (none for a run that
 * ends sooner). Nothing with --quiet. Wall-clock time is read here only for the rate, the
 * ETA and the line's interval, never inside a simulation.
 */
import cliProgress from 'cli-progress';

interface Progress {
  /** Seeds done of seeds in all; shown as runs (seeds x variants per seed). */
  update(doneSeeds: number, totalSeeds: number): void;
  stop(): void;
}

const NO_PROGRESS: Progress = { update() {}, stop() {} };

/**
 * Seconds between two progress lines off a terminal: 10, or LOCK_SIM_PROGRESS_SECONDS (0:
 * none). Ten seconds keeps an hour-long CI job's log to a few hundred lines.
 */
function progressLineSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LOCK_SIM_PROGRESS_SECONDS;
  if (raw === undefined || raw.trim() === '') return 10;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : 10;
}

export function progressBar(stream: NodeJS.WritableStream | null, label: string, runsPerSeed: number, isTTY = true): Progress {
  if (stream === null) return NO_PROGRESS;
  return isTTY ? terminalBar(stream, label, runsPerSeed) : progressLines(stream, label, runsPerSeed, progressLineSeconds());
}

const rateOf = (done: number, seconds: number): string => (seconds > 0 ? (done / seconds).toFixed(1) : '0');

function terminalBar(stream: NodeJS.WritableStream, label: string, runsPerSeed: number): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: `${label} [{bar}] {value}/{total} runs | {rate} runs/s | ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const t0 = performance.now(); // lock-sim: wall-clock ok
  return {
    update(doneSeeds, totalSeeds) {
      const done = doneSeeds * runsPerSeed;
      if (!started) {
        bar.start(totalSeeds * runsPerSeed, 0, { rate: '0' });
        started = true;
      }
      const seconds = (performance.now() - t0) / 1000; // lock-sim: wall-clock ok
      bar.update(done, { rate: rateOf(done, seconds) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** "compare: 1200/5000 runs (24%), 231.4 runs/s, about 16 s left" every `everySeconds`. */
export function progressLines(stream: NodeJS.WritableStream, label: string, runsPerSeed: number, everySeconds: number): Progress {
  if (everySeconds === 0) return NO_PROGRESS;
  const t0 = performance.now(); // lock-sim: wall-clock ok: the interval between lines
  let next = everySeconds;
  return {
    update(doneSeeds, totalSeeds) {
      const seconds = (performance.now() - t0) / 1000; // lock-sim: wall-clock ok
      if (seconds < next || doneSeeds >= totalSeeds) return;
      next = seconds + everySeconds;
      const done = doneSeeds * runsPerSeed;
      const total = totalSeeds * runsPerSeed;
      const rate = done / seconds;
      const left = rate > 0 ? `, about ${Math.ceil((total - done) / rate)} s left` : '';
      stream.write(`${label}: ${done}/${total} runs (${Math.floor((100 * done) / total)}%), ${rateOf(done, seconds)} runs/s${left}\n`);
    },
    stop() {},
  };
}
