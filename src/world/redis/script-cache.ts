/**
 * One server's script cache (redis 7.0.15 eval.c): EVAL and SCRIPT LOAD add a body under its
 * SHA1; EVALSHA finds it by SHA1 in any letter case; SCRIPT FLUSH empties it. It lives in the
 * process's memory only: a restart loses it, and since 7.0 scripts replicate by their effects,
 * so a replica or a newly promoted primary knows only what was loaded on it (EVALSHA there
 * answers NOSCRIPT, and clients such as node-redlock fall back to EVAL).
 */
import { asciiLower } from './commands.js';
import { sha1 } from './scripts.js';

/** SHA1 of each body seen, so a script sent again is not hashed again (a pure function of the text). */
const shaOfBody = new Map<string, string>();
const MAX_MEMO = 10_000;

function shaOf(body: string): string {
  let sha = shaOfBody.get(body);
  if (sha === undefined) {
    sha = sha1(body);
    if (shaOfBody.size < MAX_MEMO) shaOfBody.set(body, sha);
  }
  return sha;
}

export class ScriptCache {
  private readonly bodies = new Map<string, string>();
  /**
   * The body added last and its SHA1, in `bodies` until a flush: a client sends the same few
   * scripts over and over, so adding that body again is a comparison, not two Map operations.
   */
  private lastBody: string | null = null;
  private lastSha = '';

  /** Caches `body`; returns its SHA1 (lower-case hex, as SCRIPT LOAD replies). */
  add(body: string): string {
    if (body === this.lastBody) return this.lastSha;
    const sha = shaOf(body);
    this.bodies.set(sha, body);
    this.lastBody = body;
    this.lastSha = sha;
    return sha;
  }

  get(sha: string): string | undefined {
    return this.bodies.get(asciiLower(sha));
  }

  has(sha: string): boolean {
    return this.bodies.has(asciiLower(sha));
  }

  flush(): void {
    this.bodies.clear();
    this.lastBody = null;
  }
}
