// A worker thread (started with --experimental-vm-modules by test/own-code/esm-graph.test.ts)
// that loads a module graph twice, each time in a new vm context: as functions
// (src/own-code/esm-graph.ts) and as vm.SourceTextModules (the module path), and answers
// what each load showed: the log the modules wrote while loading (continuations included),
// the root's namespace (its names, its values, calls of its functions), or the error.
import { parentPort } from 'node:worker_threads';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { ModuleLoader } from '../../../dist/own-code/loader.js';
import { RealmCode } from '../../../dist/own-code/realm-code.js';

const hostRequire = createRequire(import.meta.url);
const drain = () => process._tickCallback();
// A rejection nothing handled during a load (the run worker records these as diagnostics: src/own-code/user-code.ts).
let unhandled = [];
process.on('unhandledRejection', (reason) => unhandled.push(`${reason?.name}: ${reason?.message}`));

function describeValue(v) {
  if (typeof v === 'function') {
    let called;
    try {
      called = v.prototype === undefined || /^class\b/.test(Function.prototype.toString.call(v)) ? 'not called' : JSON.stringify(v());
    } catch (err) {
      called = `throws ${err?.message}`;
    }
    return `${/^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'function'} ${JSON.stringify(v.name)} ${called}`;
  }
  if (v !== null && typeof v === 'object') {
    if (Object.prototype.toString.call(v) === '[object Module]') return `namespace [${Object.keys(v).join(',')}]`;
    return `object ${JSON.stringify(v)}`;
  }
  return `${typeof v} ${JSON.stringify(v)}`;
}

function load(root, asFunctions) {
  unhandled = [];
  const context = vm.createContext({});
  vm.runInContext('globalThis.log = []; globalThis.probes = [];', context);
  const realm = new RealmCode(context);
  const loader = new ModuleLoader({ context, realm, builtin: (name) => hostRequire(`node:${name}`), drain }, asFunctions);
  let out;
  try {
    const ns = loader.load(root);
    // What runs next in a process (the factory): after the continuations the load set off.
    vm.runInContext("log.push('after the load')", context);
    drain();
    // Later calls: each sets a binding that its module reassigns, then reads the importer's binding of it.
    vm.runInContext('for (const probe of probes) log.push(probe())', context);
    drain();
    out = {
      names: Object.keys(ns),
      tag: Object.prototype.toString.call(ns),
      extensible: Object.isExtensible(ns),
      values: Object.keys(ns).map((k) => `${k}: ${describeValue(ns[k])}`),
    };
  } catch (err) {
    drain();
    out = { error: `${err?.name}: ${err?.message}` };
  }
  return { ...out, log: vm.runInContext('log', context).slice(), unhandled, asFunctions: loader.functionFiles().length > 0 };
}

parentPort.on('message', ({ id, root }) => {
  parentPort.postMessage({ id, functions: load(root, true), modules: load(root, false) });
});
