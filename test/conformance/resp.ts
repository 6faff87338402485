/**
 * A minimal RESP2 client for the conformance suite: it sends each command as an array of bulk
 * strings and reads the reply exactly as the server sent it (https://redis.io/docs/latest/develop/reference/protocol-spec/),
 * without the reply shaping of a client library: errors keep their full text, integers beyond
 * 2^53 stay exact (bigint), nil is null.
 */
import { Socket } from 'node:net';

export class ServerError {
  constructor(readonly message: string) {}
}

export type Resp = null | number | bigint | string | ServerError | Resp[];

/** A command waiting for its reply; `accepts` tells its reply from a push that arrives before it. */
interface Pending {
  resolve: (r: Resp) => void;
  accepts: (r: Resp) => boolean;
}

export class RespClient {
  private buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  /** Replies no command took: pub/sub messages, and the further replies of a SUBSCRIBE of several channels. */
  readonly pushes: Resp[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const parsed = parse(this.buffer, 0);
        if (parsed === null) break;
        this.buffer = this.buffer.subarray(parsed.end);
        const head = this.pending[0];
        if (head !== undefined && head.accepts(parsed.value)) {
          this.pending.shift();
          head.resolve(parsed.value);
        } else this.pushes.push(parsed.value);
      }
    });
  }

  static connect(port: number): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      socket.once('error', reject);
      socket.connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        resolve(new RespClient(socket));
      });
    });
  }

  /** Sends a command; its reply is the next one that `accepts` takes (by default the next one). */
  send(args: readonly string[], accepts: (r: Resp) => boolean = () => true): Promise<Resp> {
    let out = `*${args.length}\r\n`;
    for (const a of args) out += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
    return new Promise((resolve) => {
      this.pending.push({ resolve, accepts });
      this.socket.write(out);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** One reply starting at `at`, or null when the buffer does not hold all of it yet. */
function parse(buf: Buffer, at: number): { value: Resp; end: number } | null {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return null;
  const head = buf.toString('utf8', at + 1, eol);
  const next = eol + 2;
  switch (String.fromCharCode(buf[at])) {
    case '+':
      return { value: head, end: next };
    case '-':
      return { value: new ServerError(head), end: next };
    case ':': {
      const n = BigInt(head);
      return { value: Number.isSafeInteger(Number(n)) ? Number(n) : n, end: next };
    }
    case '$': {
      const len = Number(head);
      if (len < 0) return { value: null, end: next };
      if (buf.length < next + len + 2) return null;
      return { value: buf.toString('utf8', next, next + len), end: next + len + 2 };
    }
    case '*': {
      const len = Number(head);
      if (len < 0) return { value: null, end: next };
      const items: Resp[] = [];
      let pos = next;
      for (let i = 0; i < len; i++) {
        const item = parse(buf, pos);
        if (item === null) return null;
        items.push(item.value);
        pos = item.end;
      }
      return { value: items, end: pos };
    }
    default:
      throw new Error(`RESP: unexpected type byte ${buf[at]}`);
  }
}
