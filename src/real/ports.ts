/** Free loopback ports: each candidate is bound once to prove it free; taken ones are skipped. */
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

/** True when nothing listens on `port` (a port taken by another program is skipped). */
export async function isFree(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
