/** Scenario problems, each with where it is (file:line:col and field path) and what is wrong. */
export interface ScenarioIssue {
  path: Array<string | number>;
  message: string;
  line?: number;
  column?: number;
}

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly issues: ScenarioIssue[],
  ) {
    super(formatIssues(file, issues));
    this.name = 'ScenarioError';
  }
}

/**
 * How much of a value a message quotes (a name, at most 100 characters, is never cut). A
 * message that echoed a whole value printed 50 MB for a 50 MB description; past this, the
 * value is cut with an ellipsis and its size.
 */
export const MAX_QUOTED_CHARS = 120;
/** A whole message (a list of names, a line of a file) is cut past this, with its size. */
const MAX_MESSAGE_CHARS = 2_000;

/** The first `max` characters of `text` (not splitting a surrogate pair), and "…" if cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A value in double quotes, cut to MAX_QUOTED_CHARS with its length when longer. */
export function quote(text: string, max = MAX_QUOTED_CHARS): string {
  return text.length <= max ? `"${text}"` : `"${cut(text, max)}" (${text.length.toLocaleString('en-US')} characters)`;
}

/** A message cut to MAX_MESSAGE_CHARS, saying how long it was. */
function cutMessage(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${cut(text, max)} (message of ${text.length.toLocaleString('en-US')} characters cut)`;
}

/** Lines of one error report printed; a file with a million bad lines says how many more there were. */
const MAX_MESSAGE_LINES = 200;

/** An error report for stderr: each line cut (cutMessage), at most MAX_MESSAGE_LINES of them. */
export function boundedReport(text: string): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, MAX_MESSAGE_LINES).map((l) => cutMessage(l));
  if (lines.length > MAX_MESSAGE_LINES) shown.push(`... and ${(lines.length - MAX_MESSAGE_LINES).toLocaleString('en-US')} more lines`);
  return shown.join('\n');
}

export function formatPath(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? cut(p, MAX_QUOTED_CHARS) : `.${cut(p, MAX_QUOTED_CHARS)}`)).join('');
}

function formatIssues(file: string, issues: readonly ScenarioIssue[]): string {
  return issues
    .map((i) => `${file}${i.line !== undefined ? `:${i.line}:${i.column}` : ''}: ${formatPath(i.path)}: ${cutMessage(i.message)}`)
    .join('\n');
}
