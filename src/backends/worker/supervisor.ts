/**
 * The own-code run worker's supervisor: a worker thread that starts the run worker
 * (run-worker.ts) with a heap limit and tells the waiting thread when it ends by itself. The
 * waiting thread (dispatch.ts) blocks on shared memory, so it never sees a Worker's 'error'
 * or 'exit' event, which arrive on its event loop; this thread's event loop is free, and a
 * run worker that ran out of heap (ERR_WORKER_OUT_OF_MEMORY: a lock module that fills memory)
 * ends only itself, its code written where the waiting thread reads it at once, instead of
 * waiting for the busy-loop watchdog and then a crash with a Node stack.
 */
import { Worker, workerData } from 'node:worker_threads';
import { markEndedIn, OUT_OF_MEMORY, watchMemory } from '../../own-code/watchdog.js';

const data = workerData as { sab: SharedArrayBuffer; port: unknown; runWorker: string; heapMb: number };
const memory = watchMemory(data.sab);
const child = new Worker(new URL(data.runWorker), {
  // Only this flag: the caller's may hold flags a worker refuses (--expose-gc: ERR_WORKER_INVALID_EXEC_ARGV).
  execArgv: ['--experimental-vm-modules'],
  workerData: { sab: data.sab, port: data.port },
  transferList: [data.port as never],
  resourceLimits: { maxOldGenerationSizeMb: data.heapMb },
});
child.on('error', (err: Error & { code?: string }) => {
  markEndedIn(memory, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? OUT_OF_MEMORY : 1);
});
child.on('exit', (code) => {
  markEndedIn(memory, code);
});
