/** Exit codes (docs/reference/exit-codes.md): 0 expectations held, 1 an expectation failed, 2 invalid input, 3 internal error. */
export const EXIT_OK = 0;
export const EXIT_EXPECTATION_FAILED = 1;
export const EXIT_INVALID_INPUT = 2;
export const EXIT_INTERNAL_ERROR = 3;
