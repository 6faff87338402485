/**
 * Exit codes: 0 expectations held, 1 an expectation failed, 2 invalid input, 3 internal error;
 * a real run ended by a signal exits as a shell reports it (128 + the signal's number).
 * EXIT_CODES says what each means: docs/reference/exit-codes.md is generated from it.
 */
export const EXIT_OK = 0;
export const EXIT_EXPECTATION_FAILED = 1;
export const EXIT_INVALID_INPUT = 2;
export const EXIT_INTERNAL_ERROR = 3;
/** A real run stopped by Ctrl-C (SIGINT) or SIGTERM, after it stopped every server it started. */
const EXIT_INTERRUPTED = 130;
const EXIT_TERMINATED = 143;

export const EXIT_CODES: ReadonlyArray<{ code: number; meaning: string }> = [
  { code: EXIT_OK, meaning: 'every expectation held (or nothing to judge; for `check`, a file without expectations passes only with `--pass-with-no-expectations`)' },
  {
    code: EXIT_EXPECTATION_FAILED,
    meaning:
      "an expectation failed (the line names its position in the file and, for `check`, the replay command), `check`'s implicit `live == 1` included; for `check`, a file without expectations; for `agree`, a judged metric on which the model and the real backend disagree",
  },
  {
    code: EXIT_INVALID_INPUT,
    meaning:
      'invalid input: scenario file, flags, unknown variant, mismatched or edited shards, a run over the request budget (`--max-requests`), a run whose simulated time stopped; with the real backend, a missing `redis-server` (with the install hint), a fault that cannot be made real (named), a `cluster` topology',
  },
  { code: EXIT_INTERNAL_ERROR, meaning: 'internal error, including a run that is not deterministic (`run --check-determinism`)' },
  { code: EXIT_INTERRUPTED, meaning: 'Ctrl-C (SIGINT) during a real run, after every `redis-server` and Sentinel it started was stopped' },
  { code: EXIT_TERMINATED, meaning: 'SIGTERM during a real run, after every `redis-server` and Sentinel it started was stopped' },
];
