/**
 * The commands that act on the connection that sends them (session.ts), as redis 7.0.15 runs
 * them: CLIENT ID / SETNAME / GETNAME / UNBLOCK (networking.c clientCommand, clientSetName),
 * SUBSCRIBE / UNSUBSCRIBE / PSUBSCRIBE / PUNSUBSCRIBE (pubsub.c), PUBSUB, PING in the pub/sub
 * context (server.c pingCommand: ["pong", text]), QUIT (OK, then the connection closes) and
 * RESET (networking.c resetCommand, clearClientConnectionState: subscriptions and name go,
 * "RESET"). They answer a list of replies: the first is the command's reply, the others go to
 * the client as pushes after it (a SUBSCRIBE of three channels answers three arrays).
 */
import type { PubSub } from './pubsub.js';
import { ERR_NOT_INTEGER, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import type { ClientSession } from './session.js';

export interface SessionHost {
  readonly pubsub: PubSub;
  sessionById(id: number): ClientSession | undefined;
  /** CLIENT UNBLOCK: answers a blocked session (timeout reply or error); false when it was not blocked. */
  unblockSession(session: ClientSession, withError: boolean): boolean;
}

/** Commands a RESP2 client in the pub/sub context may send (server.c processCommand). */
export const PUBSUB_CONTEXT_COMMANDS: ReadonlySet<string> = new Set(['ping', 'subscribe', 'unsubscribe', 'psubscribe', 'punsubscribe', 'quit', 'reset']);

/** Commands answered here (the node sends them, with the session, to runSessionCommand). */
export const SESSION_COMMANDS: ReadonlySet<string> = new Set(['client', 'subscribe', 'unsubscribe', 'psubscribe', 'punsubscribe', 'pubsub', 'quit', 'reset']);

const subcommandSyntax = (args: readonly string[]): RedisErrorReply =>
  new RedisErrorReply(`ERR unknown subcommand or wrong number of arguments for '${args[1].slice(0, 128)}'. Try ${args[0].toUpperCase()} HELP.`);

function client(host: SessionHost, session: ClientSession, args: readonly string[]): RedisReply {
  const sub = args[1].toLowerCase();
  if (sub === 'id') return session.id;
  if (sub === 'getname') return session.name === '' ? null : session.name;
  if (sub === 'setname') {
    // networking.c clientSetName: only '!'..'~' (a byte of a non-ASCII character is below '!' as a signed char).
    if (!/^[\x21-\x7e]*$/.test(args[2])) return new RedisErrorReply('ERR Client names cannot contain spaces, newlines or special characters.');
    session.name = args[2];
    return 'OK';
  }
  // UNBLOCK <id> [TIMEOUT|ERROR]: the reason first, then the id.
  if (args.length > 4) return subcommandSyntax(args);
  let withError = false;
  if (args.length === 4) {
    const reason = args[3].toLowerCase();
    if (reason !== 'timeout' && reason !== 'error') return new RedisErrorReply('ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR');
    withError = reason === 'error';
  }
  const id = parseInt64(args[2]);
  if (id === null) return ERR_NOT_INTEGER;
  const target = id > 0n && id <= BigInt(Number.MAX_SAFE_INTEGER) ? host.sessionById(Number(id)) : undefined;
  return target !== undefined && host.unblockSession(target, withError) ? 1 : 0;
}

/** runs a session command; `inTransaction`: inside EXEC (SUBSCRIBE is allowed there, pubsub.c). */
export function runSessionCommand(host: SessionHost, session: ClientSession, args: readonly string[], name: string): RedisReply[] {
  const rest = args.slice(1);
  switch (name) {
    case 'client':
      return [client(host, session, args)];
    case 'subscribe':
      return host.pubsub.subscribeSession(session, rest);
    case 'unsubscribe':
      return host.pubsub.unsubscribeSession(session, rest);
    case 'psubscribe':
      return host.pubsub.psubscribeSession(session, rest);
    case 'punsubscribe':
      return host.pubsub.punsubscribeSession(session, rest);
    case 'pubsub':
      return [host.pubsub.pubsubCommand(args)];
    case 'quit':
      session.closed = true;
      return ['OK'];
    default:
      // RESET.
      host.pubsub.dropSession(session);
      session.name = '';
      return ['RESET'];
  }
}

/** server.c pingCommand in the RESP2 pub/sub context. */
export const subscribedPing = (args: readonly string[]): RedisReply => ['pong', args.length > 1 ? args[1] : ''];
