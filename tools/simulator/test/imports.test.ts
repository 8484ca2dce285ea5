import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The simulator's import graph, read from its sources (type imports included): it stays inside
 * tools/simulator/ (eslint.config.js says so per import; this sees the whole graph) and has no
 * circle, so any of its modules can be read, tested or moved on its own.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(root, 'test') ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const graph = new Map(sources(root).map((file) => [file, [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]))]));

/** Every circle, each as the files on it (Tarjan's strongly connected components with more than one file). */
function circles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component = stack.splice(stack.indexOf(v));
      if (component.length > 1) found.push(component.map((f) => relative(root, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the simulator as a unit of its own', () => {
  it('imports nothing outside tools/simulator/', () => {
    expect(graph.size).toBeGreaterThan(20);
    const outside = [...graph].flatMap(([file, deps]) => deps.filter((d) => relative(root, d).startsWith('..')).map((d) => `${relative(root, file)} -> ${relative(root, d)}`));
    expect(outside).toEqual([]);
  });

  it('has no import circle (type imports included)', () => {
    expect(circles()).toEqual([]);
  });
});
