/**
 * Where the browser test finds Chromium: Debian's `chromium` package, which .ci/run installs.
 * Shared by the test and by the notice that `npm test` prints when it is missing.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);
export const BROWSER_TEST = 'test/report/html-browser.test.ts';
export const skipNotice = (): string =>
  `NOTICE: ${BROWSER_TEST} is SKIPPED: ${CHROMIUM} is missing, so the HTML reports were not checked in a browser ` +
  '(apt-get install chromium, as .ci/run does; under CI=true the missing browser is a failure instead)';
