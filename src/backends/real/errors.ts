/** Why a real run cannot start (exit 2): a missing redis-server, a fault with no physical form. */
export class RealBackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RealBackendError';
  }
}

export const INSTALL_HINT = 'install it with `sudo apt-get install -y redis-server` (Debian, Ubuntu) or `brew install redis`, or pass --redis-server PATH';
