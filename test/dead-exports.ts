/**
 * Which exports of src/ nothing uses: no file of src/, test/, scripts/ or bin/ imports them and
 * the package API (src/index.ts) does not re-export them. Syntactic, so it needs no program and
 * no type checker: each file is parsed alone, and relative imports, re-exports, `export *`,
 * namespace imports (by the properties read from them), import() and import types are
 * followed. A script's `'../dist/x.js'`, or any string naming a built file (`'cli/x.js'` joined
 * to dist/), stands for the source beside it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface DeadExport {
  /** Relative to the root, with forward slashes. */
  file: string;
  line: number;
  name: string;
  /** Read in its own file besides its declaration: unexport it; otherwise delete it. */
  usedLocally: boolean;
}

type Export =
  | { kind: 'local'; node: ts.Node; local: string; declName?: ts.Node }
  | { kind: 'from'; node: ts.Node; file: string; name: string }
  | { kind: 'namespace'; node: ts.Node; file: string }
  | { kind: 'external'; node: ts.Node };

interface Module {
  sf: ts.SourceFile;
  exports: Map<string, Export>;
  stars: string[];
}

/** The folders and files read, relative to the root. */
const READ = ['src', 'test', 'scripts', 'bin', 'vitest.config.ts', 'vitest.mutate.config.ts', 'stryker.config.mjs'];
const CODE = /\.(ts|mts|mjs|js)$/;

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return CODE.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) => walk(join(path, name)));
}

export function deadExports(rootDir: string): DeadExport[] {
  const root = resolve(rootDir);
  const src = join(root, 'src');
  const dist = join(root, 'dist');
  const files = READ.flatMap((p) => walk(join(root, p)));
  const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

  const toSource = (p: string): string | null => {
    const inSrc = p.startsWith(dist + '/') ? join(src, relative(dist, p)) : p;
    return [inSrc, inSrc.replace(/\.js$/, '.ts'), `${inSrc}.ts`, join(inSrc, 'index.ts')].find(isFile) ?? null;
  };
  const resolveSpecifier = (from: string, specifier: string): string | null => {
    if (specifier === 'lock-sim') return join(src, 'index.ts');
    return specifier.startsWith('.') ? toSource(resolve(dirname(from), specifier)) : null;
  };

  const modules = new Map<string, Module>();
  const uses: Array<[string, string]> = [];
  const ALL = '*';

  const namespaceUses = (sf: ts.SourceFile, ns: string, target: string): void => {
    const names: string[] = [];
    let all = false;
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && n.text === ns && !ts.isNamespaceImport(n.parent)) {
        if (ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n) names.push(n.parent.name.text);
        else if (ts.isQualifiedName(n.parent) && n.parent.left === n) names.push(n.parent.right.text);
        else all = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (all) uses.push([target, ALL]);
    else for (const name of names) uses.push([target, name]);
  };

  /** `(await import(x)).name`, `const { a, b } = await import(x)`; anything else uses it all. */
  const dynamicUses = (call: ts.Node, target: string): void => {
    let n = call.parent;
    while (ts.isParenthesizedExpression(n) || ts.isAwaitExpression(n) || ts.isAsExpression(n)) n = n.parent;
    if (ts.isPropertyAccessExpression(n)) uses.push([target, n.name.text]);
    else if (ts.isVariableDeclaration(n) && ts.isObjectBindingPattern(n.name)) {
      for (const e of n.name.elements) uses.push([target, (e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName : (e.name as ts.Identifier)).text]);
    } else uses.push([target, ALL]);
  };

  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    const mod: Module = { sf, exports: new Map(), stars: [] };
    modules.set(file, mod);
    const script = !file.startsWith(src + '/') && !file.startsWith(join(root, 'test') + '/');
    const exported = (n: ts.Node): boolean => (ts.getCombinedModifierFlags(n as ts.Declaration) & ts.ModifierFlags.Export) !== 0;

    for (const st of sf.statements) {
      if (ts.isExportDeclaration(st)) {
        const target = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolveSpecifier(file, st.moduleSpecifier.text) : null;
        if (!st.exportClause) {
          if (target) mod.stars.push(target);
        } else if (ts.isNamespaceExport(st.exportClause)) {
          mod.exports.set(st.exportClause.name.text, target ? { kind: 'namespace', node: st, file: target } : { kind: 'external', node: st });
        } else {
          for (const el of st.exportClause.elements) {
            const original = (el.propertyName ?? el.name).text;
            if (!st.moduleSpecifier) mod.exports.set(el.name.text, { kind: 'local', node: el, local: original });
            else mod.exports.set(el.name.text, target ? { kind: 'from', node: el, file: target, name: original } : { kind: 'external', node: el });
          }
        }
      } else if (ts.isExportAssignment(st)) {
        mod.exports.set('default', { kind: 'local', node: st, local: 'default' });
      } else if (ts.isVariableStatement(st) && exported(st)) {
        for (const d of st.declarationList.declarations) {
          const collect = (b: ts.BindingName): void => {
            if (ts.isIdentifier(b)) mod.exports.set(b.text, { kind: 'local', node: st, local: b.text, declName: b });
            else for (const e of b.elements) if (!ts.isOmittedExpression(e)) collect(e.name);
          };
          collect(d.name);
        }
      } else if (
        (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) &&
        st.name && exported(st)
      ) {
        const name = ts.getCombinedModifierFlags(st) & ts.ModifierFlags.Default ? 'default' : st.name.text;
        // An overloaded function: its first signature stands for it.
        if (!mod.exports.has(name)) mod.exports.set(name, { kind: 'local', node: st, local: st.name.text, declName: st.name });
      } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause) {
        const target = resolveSpecifier(file, st.moduleSpecifier.text);
        const clause = st.importClause;
        if (!target) continue;
        if (clause.name) uses.push([target, 'default']);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) namespaceUses(sf, bindings.name.text, target);
        else if (bindings) for (const el of bindings.elements) uses.push([target, (el.propertyName ?? el.name).text]);
      }
    }

    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && n.arguments.length > 0 && ts.isStringLiteralLike(n.arguments[0])) {
        const text = n.arguments[0].text;
        if (n.expression.kind === ts.SyntaxKind.ImportKeyword) {
          const target = resolveSpecifier(file, text);
          if (target) dynamicUses(n, target);
        } else if (ts.isPropertyAccessExpression(n.expression) && /^(mock|doMock)$/.test(n.expression.name.text)) {
          const target = resolveSpecifier(file, text);
          if (target) uses.push([target, ALL]);
        } else if (script && /\.js$/.test(text) && !text.startsWith('.')) {
          const target = toSource(join(dist, text));
          if (target) dynamicUses(n, target);
        }
      } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
        const target = resolveSpecifier(file, n.argument.literal.text);
        if (target) {
          let q = n.qualifier;
          while (q && ts.isQualifiedName(q)) q = q.left;
          uses.push([target, q ? q.text : ALL]);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  const used = new Set<string>();
  const use = (file: string, name: string, seen = new Set<string>()): void => {
    const key = `${file}\0${name}`;
    const mod = modules.get(file);
    if (seen.has(key) || !mod) return;
    seen.add(key);
    if (name === ALL) {
      for (const n of mod.exports.keys()) use(file, n, seen);
      for (const star of mod.stars) use(star, ALL, seen);
      return;
    }
    const e = mod.exports.get(name);
    if (!e) {
      for (const star of mod.stars) use(star, name, seen);
      return;
    }
    used.add(key);
    if (e.kind === 'from') use(e.file, e.name, seen);
    if (e.kind === 'namespace') use(e.file, ALL, seen);
  };
  use(join(src, 'index.ts'), ALL);
  for (const [file, name] of uses) use(file, name);

  const dead: DeadExport[] = [];
  for (const [file, mod] of modules) {
    if (!file.startsWith(src + '/')) continue;
    for (const [name, e] of mod.exports) {
      if (used.has(`${file}\0${name}`)) continue;
      const local = e.kind === 'local' ? e.local : name;
      const declName = e.kind === 'local' ? e.declName : undefined;
      let usedLocally = false;
      const visit = (n: ts.Node): void => {
        if (ts.isIdentifier(n) && n.text === local && n !== declName && !ts.isExportSpecifier(n.parent)) {
          const p = n.parent;
          const member =
            (ts.isPropertyAccessExpression(p) && p.name === n) || (ts.isPropertyAssignment(p) && p.name === n) || (ts.isQualifiedName(p) && p.right === n) ||
            ((ts.isPropertySignature(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isMethodSignature(p)) && p.name === n);
          const overload = ts.isFunctionDeclaration(p) && p.name === n;
          if (!member && !overload && !(ts.isImportSpecifier(p) || ts.isExportSpecifier(p))) usedLocally = true;
        }
        ts.forEachChild(n, visit);
      };
      visit(mod.sf);
      const line = mod.sf.getLineAndCharacterOfPosition(e.node.getStart()).line + 1;
      dead.push({ file: relative(root, file).split('\\').join('/'), line, name, usedLocally });
    }
  }
  return dead.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
