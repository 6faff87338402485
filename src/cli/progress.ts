/**
 * A progress bar for long sweeps (runs done, runs/s, ETA) on a terminal's stderr; nothing
 * at all when stderr is not a terminal or the output is JSON. Wall-clock time is read here
 * only for the rate and the ETA, never inside a simulation.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Seeds done of seeds in all; shown as runs (seeds x variants per seed). */
  update(doneSeeds: number, totalSeeds: number): void;
  stop(): void;
}

export const NO_PROGRESS: Progress = { update() {}, stop() {} };

export function progressBar(stream: NodeJS.WritableStream | null, label: string, runsPerSeed: number): Progress {
  if (stream === null) return NO_PROGRESS;
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
      bar.update(done, { rate: seconds > 0 ? (done / seconds).toFixed(1) : '0' });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
