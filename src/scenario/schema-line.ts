/**
 * The editor modeline of a scenario file: `# yaml-language-server: $schema=<path>` on its
 * first line points the YAML language server (VS Code's YAML extension, and any editor that
 * uses it) at the JSON Schema of scenario files, relative to the file itself. The package
 * ships that schema as schema/scenario.schema.json (`lock-sim schema --output` writes it
 * anywhere); the built-in scenarios and what `init` writes carry the line.
 */
import { dirname, isAbsolute, relative } from 'node:path';

export const MODELINE_PREFIX = '# yaml-language-server: $schema=';

/** The schema file's name in the package (schema/) and what `lock-sim schema --output` suggests. */
export const SCHEMA_FILE_NAME = 'scenario.schema.json';

/** The modeline for a scenario written at `scenarioFile`, pointing at `schemaFile`. */
export function schemaModeline(scenarioFile: string, schemaFile: string): string {
  const rel = relative(dirname(scenarioFile), schemaFile).split('\\').join('/');
  const path = isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
  return `${MODELINE_PREFIX}${path}`;
}

/** The text with its modeline set to `line`: the first line replaced if it is one, else the line added first. */
export function withModeline(text: string, line: string): string {
  const [first, ...rest] = text.split('\n');
  return first.startsWith(MODELINE_PREFIX) ? [line, ...rest].join('\n') : `${line}\n${text}`;
}
