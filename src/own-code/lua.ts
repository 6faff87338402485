/**
 * Real Lua for the scripts user code sends (EVAL / EVALSHA of anything that is not one of
 * lock-sim's built-in scripts), in fengari 0.1.5 (Lua 5.3 in JavaScript; Redis embeds Lua 5.1:
 * see the model notes of docs/guides/own-code.md for what differs). The conversions follow redis 7.0.15
 * src/script_lua.c:
 * - Redis -> Lua (redisProtocolToLuaType_*): integer -> number, bulk -> string, nil bulk or
 *   nil array -> false, array -> table, status -> { ok = s }, error -> { err = s };
 * - Lua -> Redis (luaReplyToRedisReply): number -> integer (truncated), string -> bulk,
 *   true -> 1, false and nil -> nil, a table with `err` -> error, with `ok` -> status, any
 *   other table -> array up to its first nil;
 * - redis.call raises the command's error (the script stops there, with what it wrote kept:
 *   no rollback); redis.pcall returns it as { err = ... }.
 * Arguments to redis.call are strings; numbers are written as Lua 5.1 prints them ("%.14g").
 * A script runs at one simulated instant, so time inside it is frozen as in Redis.
 */
// First: fengari's configuration, read when fengari loads.
import './lua-conf.js';
import { lauxlib, lua, lualib, to_luastring } from 'fengari';
import { isStatusReply } from '../world/redis/commands.js';
import { RedisErrorReply, type RedisReply } from '../world/redis/reply.js';

type ScriptCall = (args: string[]) => RedisReply;

/** A status reply ("+OK") as the Lua side sees it: { ok = "OK" }. Kept apart from bulk strings. */
class StatusReply {
  constructor(readonly status: string) {}
}

interface LuaState {
  L: unknown;
  /** Compiled chunks by script text: registry references. */
  chunks: Map<string, number>;
  /** The Lua strings "KEYS" and "ARGV", made once: registry references (setArray). */
  keysName: number;
  argvName: number;
  /** The command runner of the script now running. */
  call: ScriptCall | null;
}

let state: LuaState | null = null;

const S = (s: string): Uint8Array => to_luastring(s);
/**
 * The names every script run reads or writes, converted once (to_luastring allocates a byte
 * array per call: measured on the own-code twin, the KEYS/ARGV tables were a quarter of a
 * script run's time). fengari reads these arrays and never changes them.
 */
const KEYS_NAME = S('KEYS');
const ARGV_NAME = S('ARGV');
const ERR_FIELD = S('err');
const OK_FIELD = S('ok');
const LINE_FIELD = S('line');

/**
 * How Redis's Lua turns a number argument of redis.call into a string: "%.17g" (measured on
 * redis-server 7.0.15: 3.5 -> "3.5", 0.1 -> "0.10000000000000001", 1e20 -> "1e+20").
 */
export function luaNumberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e17) return String(n);
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : n < 0 ? '-inf' : 'nan';
  const s = n.toPrecision(17);
  const [m, e] = s.split('e');
  const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
  if (e === undefined) return mant;
  const exp = Number(e);
  return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Replies Redis sends as status (+OK) rather than bulk strings, which Lua sees as { ok = ... } (world/redis/commands.ts isStatusReply). */
const isStatus = isStatusReply;

function init(): LuaState {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  const st: LuaState = { L, chunks: new Map(), keysName: nameRef(L, KEYS_NAME), argvName: nameRef(L, ARGV_NAME), call: null };
  lua.lua_newtable(L);
  const fn = (name: string, f: (L: unknown) => number): void => {
    lua.lua_pushjsfunction(L, f);
    lua.lua_setfield(L, -2, S(name));
  };
  fn('call', (L) => redisCall(st, L, true));
  fn('pcall', (L) => redisCall(st, L, false));
  fn('status_reply', (L) => {
    lua.lua_newtable(L);
    lua.lua_pushvalue(L, 1);
    lua.lua_setfield(L, -2, S('ok'));
    return 1;
  });
  fn('error_reply', (L) => {
    lua.lua_newtable(L);
    lua.lua_pushvalue(L, 1);
    lua.lua_setfield(L, -2, S('err'));
    return 1;
  });
  fn('log', () => 0);
  fn('setresp', () => 0);
  fn('replicate_commands', (L) => {
    lua.lua_pushboolean(L, true);
    return 1;
  });
  fn('set_repl', () => 0);
  for (const [name, level] of [['LOG_DEBUG', 0], ['LOG_VERBOSE', 1], ['LOG_NOTICE', 2], ['LOG_WARNING', 3]] as const) {
    lua.lua_pushinteger(L, level);
    lua.lua_setfield(L, -2, S(name));
  }
  lua.lua_setglobal(L, S('redis'));
  // Lua 5.1's global unpack (Redis embeds 5.1; 5.3 keeps it as table.unpack only): scripts
  // such as Redisson's RPermitExpirableSemaphore call `unpack(expiredIds)`.
  lua.lua_getglobal(L, S('table'));
  lua.lua_getfield(L, -1, S('unpack'));
  lua.lua_setglobal(L, S('unpack'));
  lua.lua_pop(L, 1);
  // Lua 5.1's math.max / math.min (lmathlib.c math_max: luaL_checknumber of every argument, so
  // a numeric string counts as its number; 5.3 compares the values as they are and fails on a
  // string): Redisson's read lock calls `math.max(remainTime, ARGV[1])`.
  lua.lua_getglobal(L, S('math'));
  for (const [name, greater] of [['max', true], ['min', false]] as const) {
    lua.lua_pushjsfunction(L, (Ls: unknown) => {
      const n = lua.lua_gettop(Ls);
      let best = lauxlib.luaL_checknumber(Ls, 1) as number;
      for (let i = 2; i <= n; i++) {
        const d = lauxlib.luaL_checknumber(Ls, i) as number;
        if (greater ? d > best : d < best) best = d;
      }
      lua.lua_pushnumber(Ls, best);
      return 1;
    });
    lua.lua_setfield(L, -2, S(name));
  }
  lua.lua_pop(L, 1);
  return st;
}

function argText(L: unknown, i: number): string | null {
  const t = lua.lua_type(L, i);
  if (t === lua.LUA_TNUMBER) return luaNumberText(lua.lua_tonumber(L, i));
  if (t === lua.LUA_TSTRING) return lua.lua_tojsstring(L, i);
  return null;
}

/** redis.call / redis.pcall (script_lua.c luaRedisGenericCommand). */
function redisCall(st: LuaState, L: unknown, raise: boolean): number {
  const n = lua.lua_gettop(L);
  const args: string[] = [];
  for (let i = 1; i <= n; i++) {
    const a = argText(L, i);
    if (a === null) {
      return raiseOrReturn(L, 'ERR Lua redis lib command arguments must be strings or integers', raise);
    }
    args.push(a);
  }
  if (args.length === 0) return raiseOrReturn(L, 'ERR Please specify at least one argument for this redis lib call', raise);
  const reply = (st.call as ScriptCall)(args);
  if (reply instanceof RedisErrorReply) return raiseOrReturn(L, reply.message, raise);
  pushReply(L, isStatus(args, reply) ? new StatusReply(reply as string) : reply);
  return 1;
}

function raiseOrReturn(L: unknown, message: string, raise: boolean): number {
  lua.lua_newtable(L);
  lua.lua_pushstring(L, S(message));
  lua.lua_setfield(L, -2, ERR_FIELD);
  if (!raise) return 1;
  // Where the failing redis.call stands, for the error reply's "on @user_script:N".
  lauxlib.luaL_where(L, 1);
  lua.lua_pushinteger(L, errorLine(lua.lua_tojsstring(L, -1) ?? ''));
  lua.lua_setfield(L, -3, LINE_FIELD);
  lua.lua_pop(L, 1);
  return lua.lua_error(L);
}

function pushReply(L: unknown, r: RedisReply | StatusReply): void {
  if (r === null) lua.lua_pushboolean(L, false);
  // fengari's integers are 32-bit; Redis's Lua 5.1 holds every number as a double, so a
  // larger integer (or a 64-bit one, bigint) goes in as a double, as it would there.
  else if (typeof r === 'number') {
    if ((r | 0) === r) lua.lua_pushinteger(L, r);
    else lua.lua_pushnumber(L, r);
  } else if (typeof r === 'bigint') lua.lua_pushnumber(L, Number(r));
  else if (typeof r === 'string') lua.lua_pushstring(L, S(r));
  else if (r instanceof StatusReply) {
    lua.lua_newtable(L);
    lua.lua_pushstring(L, S(r.status));
    lua.lua_setfield(L, -2, OK_FIELD);
  } else if (r instanceof RedisErrorReply) {
    lua.lua_newtable(L);
    lua.lua_pushstring(L, S(r.message));
    lua.lua_setfield(L, -2, ERR_FIELD);
  } else {
    lua.lua_createtable(L, r.length, 0);
    for (let i = 0; i < r.length; i++) {
      pushReply(L, r[i]);
      lua.lua_rawseti(L, -2, i + 1);
    }
  }
}

/** The value on top of the stack as a Redis reply (luaReplyToRedisReply); pops it. */
function popReply(L: unknown): RedisReply {
  const t = lua.lua_type(L, -1);
  let out: RedisReply;
  if (t === lua.LUA_TNUMBER) out = Math.trunc(lua.lua_tonumber(L, -1));
  else if (t === lua.LUA_TSTRING) out = lua.lua_tojsstring(L, -1);
  else if (t === lua.LUA_TBOOLEAN) out = lua.lua_toboolean(L, -1) ? 1 : null;
  else if (t === lua.LUA_TTABLE) {
    lua.lua_getfield(L, -1, ERR_FIELD);
    if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
      out = new RedisErrorReply(lua.lua_tojsstring(L, -1));
      lua.lua_pop(L, 1);
    } else {
      lua.lua_pop(L, 1);
      lua.lua_getfield(L, -1, OK_FIELD);
      if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
        // A status reply reaches the client as a plain string (RESP2 "+OK").
        out = lua.lua_tojsstring(L, -1);
        lua.lua_pop(L, 1);
      } else {
        lua.lua_pop(L, 1);
        const items: RedisReply[] = [];
        for (let j = 1; ; j++) {
          lua.lua_rawgeti(L, -1, j);
          if (lua.lua_type(L, -1) === lua.LUA_TNIL) {
            lua.lua_pop(L, 1);
            break;
          }
          items.push(popReply(L));
        }
        out = items;
      }
    }
  } else out = null;
  lua.lua_pop(L, 1);
  return out;
}

/** A Lua string kept in the registry: pushing it again pushes the same string, whose hash fengari computed once. */
function nameRef(L: unknown, name: Uint8Array): number {
  lua.lua_pushstring(L, name);
  return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX) as number;
}

/**
 * A new table of `values` as the global named by the registry string `nameRef`, set raw in the
 * globals table, which has no metatable here: what lua_setglobal does, without making the
 * name's Lua string again for every script (fengari 0.1.5 copies the name into a new string and
 * hashes it as a hexadecimal text on each lua_setglobal).
 */
function setArray(L: unknown, nameRef: number, values: readonly string[]): void {
  lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
  lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, nameRef);
  lua.lua_createtable(L, values.length, 0);
  for (let i = 0; i < values.length; i++) {
    lua.lua_pushstring(L, S(values[i]));
    lua.lua_rawseti(L, -2, i + 1);
  }
  lua.lua_rawset(L, -3);
  lua.lua_pop(L, 1);
}

/** The first line number in a Lua error message "user_script:N: ..." (1 if none). */
function errorLine(message: string): number {
  const m = /user_script:(\d+):/.exec(message);
  return m ? Number(m[1]) : 1;
}

/**
 * Runs a user script against `call` (the node's keyspace command path). `sha` names the
 * script in error replies as Redis 7 does ("... script: <sha>, on @user_script:<line>.").
 */
export function runLuaScript(lua_: string, sha: string, keys: readonly string[], argv: readonly string[], call: ScriptCall): RedisReply {
  state ??= init();
  const st = state;
  const L = st.L;
  let ref = st.chunks.get(lua_);
  if (ref === undefined) {
    // redis 7.0.15 eval.c luaCreateFunction: the body becomes function f_<sha>() ... end; "@user_script" names the chunk.
    const status = lauxlib.luaL_loadbuffer(L, S(lua_), null, S('@user_script'));
    if (status !== lua.LUA_OK) {
      // Lua 5.1 (Redis) quotes the end of input as '<eof>', Lua 5.3 (fengari) does not.
      const msg = String(lua.lua_tojsstring(L, -1)).replace(/near <eof>$/, "near '<eof>'");
      lua.lua_pop(L, 1);
      return new RedisErrorReply(`ERR Error compiling script (new function): ${msg}`);
    }
    ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX) as number;
    st.chunks.set(lua_, ref);
  }
  setArray(L, st.keysName, keys);
  setArray(L, st.argvName, argv);
  const previous = st.call;
  st.call = call;
  try {
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
    const status = lua.lua_pcall(L, 0, 1, 0);
    if (status !== lua.LUA_OK) {
      let message: string;
      let line = 1;
      if (lua.lua_type(L, -1) === lua.LUA_TTABLE) {
        lua.lua_getfield(L, -1, ERR_FIELD);
        message = lua.lua_tojsstring(L, -1) ?? 'ERR unknown error';
        lua.lua_getfield(L, -2, LINE_FIELD);
        line = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? lua.lua_tointeger(L, -1) : 1;
        lua.lua_pop(L, 3);
      } else {
        const raw = lua.lua_tojsstring(L, -1) ?? 'unknown error';
        lua.lua_pop(L, 1);
        line = errorLine(raw);
        message = `ERR ${raw}`;
      }
      return new RedisErrorReply(`${message} script: ${sha}, on @user_script:${line}.`);
    }
    return popReply(L);
  } finally {
    st.call = previous;
  }
}
