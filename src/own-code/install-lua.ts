/** Installs the Lua VM (lua.ts) as the Redis model's runner of user scripts (world/redis/user-scripts.ts). */
import { setUserScriptRunner, userScriptRunner } from '../world/redis/user-scripts.js';
import { runLuaScript } from './lua.js';

export function installLua(): void {
  if (userScriptRunner() === null) setUserScriptRunner(runLuaScript);
}
