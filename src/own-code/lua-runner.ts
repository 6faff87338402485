/**
 * The Lua VM (lua.ts) as the Redis model's runner of user scripts (world/redis/node.ts
 * UserScriptRunner): a run of user code builds its world with it (runner/build-world.ts), a
 * run of the built-in protocols without (their scripts are native: world/redis/scripts.ts).
 */
import type { UserScriptRunner } from '../world/redis/node.js';
import { scriptCallReply } from '../world/redis/script-call.js';
import { runLuaScript } from './lua.js';

export const luaScriptRunner: UserScriptRunner = (ctx, body, keys, argv) => runLuaScript(body, ctx.sha, keys, argv, (a) => scriptCallReply(ctx, a));
