import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * package.json's `dependencies` are what the product runs, no more, no less: the worker image keeps
 * only them (`npm prune --omit=dev`). The product is the folders the Dockerfile copies; the simulator
 * (tools/), the tests and the benchmarks run from a clone, where `npm install` brings the
 * devDependencies too (docs/design-notes.md says why the simulator's packages are dev ones).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCT = ['common', 'cli', 'workflows', 'activities', 'worker'];
const builtins = new Set(builtinModules);
/**
 * Loaded only when the product runs from its TypeScript sources (tests in a clone), never by the
 * compiled CLI and worker: worker/workflowBundle.ts starts its bundling child with tsx only when
 * its own file is `.ts`.
 */
const SOURCES_ONLY = new Set(['tsx']);

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** `@scope/name` or `name` of a bare specifier; undefined for relative paths and Node built-ins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || builtins.has(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Packages a file needs at run time: value imports and re-exports (not `import type`), dynamic
 * `import()`, and `resolve('<package>…')` (files read from a package, such as Chart.js's bundle).
 */
function runtimePackages(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isResolve = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve';
      if (isImport || isResolve) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map(packageOf).filter((p): p is string => p !== undefined);
}

function packagesOf(dirs: string[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const dir of dirs) for (const file of sourcesUnder(dir)) for (const name of runtimePackages(file)) users.set(name, [...(users.get(name) ?? []), relative(root, file)]);
  return users;
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

describe('runtime dependencies', () => {
  it('are exactly the packages the product (the folders of the worker image) loads at run time', () => {
    const product = [...packagesOf(PRODUCT).keys()].filter((p) => !SOURCES_ONLY.has(p));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(product.sort());
    for (const name of SOURCES_ONLY) expect(manifest.devDependencies, name).toHaveProperty(name);
  });

  it('leave the simulator its own packages as devDependencies, installed by npm install in a clone', () => {
    const product = packagesOf(PRODUCT);
    const simulatorOnly = [...packagesOf(['tools/simulator']).keys()].filter((p) => !product.has(p)).sort();
    expect(simulatorOnly).toContain('@noble/curves');
    for (const name of simulatorOnly) expect(manifest.devDependencies, name).toHaveProperty(name);
  });
});
