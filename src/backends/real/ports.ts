/**
 * Free loopback ports: the kernel picks one no socket holds (bind to port 0), so a port in use
 * is never handed out, and no port is handed out twice in one lock-sim process.
 */
import { createServer } from 'node:net';

const reserved = new Set<number>();

/** Binds port 0 and reads back what the kernel chose (never a port in use). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const p = typeof address === 'object' && address !== null ? address.port : 0;
        server.close(() => resolve(p));
      });
    });
    // Two processes started in one run must not be handed the same port before they bind it.
    if (!reserved.has(port)) {
      reserved.add(port);
      return port;
    }
  }
}

/** How often a start whose port was taken between the pick and the bind tries another. */
export const PORT_ATTEMPTS = 5;

/**
 * Runs `start` on a free port, and again on a new one when the port was taken between the
 * kernel's pick and the bind (another process's socket got it: `taken(err)`), up to
 * PORT_ATTEMPTS times. Returns the port it started on.
 */
export async function onFreePort(start: (port: number) => Promise<void>, taken: (err: unknown) => boolean): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !taken(err)) throw err;
    }
  }
}

/** A listen that failed because its port is in use (Node's EADDRINUSE). */
export const addressInUse = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
