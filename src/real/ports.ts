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
