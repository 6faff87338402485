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

export function formatPath(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export function formatIssues(file: string, issues: readonly ScenarioIssue[]): string {
  return issues
    .map((i) => `${file}${i.line !== undefined ? `:${i.line}:${i.column}` : ''}: ${formatPath(i.path)}: ${i.message}`)
    .join('\n');
}
