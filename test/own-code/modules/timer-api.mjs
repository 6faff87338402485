// Node's timer API as a module sees it: clearInterval in the interval's own callback, clearTimeout
// by a Timeout and by the number of one whose id was taken (Node's knownTimersById), clearImmediate,
// and clears that come too late or name no timer. test/own-code/environment.test.ts reads the log.
export default function timerApi() {
  return {
    async acquire() {
      const log = [];
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      let ticks = 0;
      const interval = setInterval(() => {
        ticks++;
        if (ticks === 3) clearInterval(interval);
      }, 10);
      const byTimeout = setTimeout(() => log.push('cleared by its Timeout: fired'), 20);
      clearTimeout(byTimeout);
      const numbered = setTimeout(() => log.push('cleared by its number: fired'), 20);
      clearTimeout(+numbered);
      const notTaken = setTimeout(() => log.push('a number never taken names no timer: fired'), 20);
      clearTimeout(notTaken.id);
      const fired = setTimeout(() => log.push('fired before its clear'), 5);
      const immediate = setImmediate(() => log.push('cleared immediate: ran'));
      clearImmediate(immediate);
      setImmediate(() => log.push('immediate ran'));
      await wait(100);
      clearTimeout(fired);
      log.push(`interval ticks ${ticks}`);
      throw new Error(`RESULTS ${JSON.stringify(log)}`);
    },
    async release() {
      return false;
    },
  };
}
