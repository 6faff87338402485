/** fengari 0.1.5 ships no types; lua.ts uses its C-like API through these loose declarations. */
declare module 'fengari' {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  export const lua: any;
  export const lauxlib: any;
  export const lualib: any;
  export function to_luastring(s: string): Uint8Array;
  export function to_jsstring(s: Uint8Array): string;
}
