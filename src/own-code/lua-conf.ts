/**
 * fengari's configuration, set before fengari is first loaded (lua.ts imports this file first):
 * its luaconf.js reads FENGARICONF once, at load. LUA_COMPAT_FLOATSTRING makes an integral
 * float print as "2" where Lua 5.3 prints "2.0", which is what Redis's Lua 5.1 prints (every
 * number a double, "%.14g"). It matters where a script concatenates a number that 5.3 holds
 * as a float: a numeric `for` loop started from a string (Redisson's ReadLockTask from 4.4.0
 * counts `for c=counter, 1, -1` from HGET's string, and names keys `...:rwlock_timeout:` .. c).
 */
const given: Record<string, unknown> = process.env.FENGARICONF ? (JSON.parse(process.env.FENGARICONF) as Record<string, unknown>) : {};
process.env.FENGARICONF = JSON.stringify({ ...given, LUA_COMPAT_FLOATSTRING: true });
