import type { RouteDef, Service } from './route.ts';

interface Compiled {
  route: RouteDef;
  /** Literal segment, or null for a parameter. */
  segments: (string | null)[];
  names: string[];
  literals: number;
}

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

/**
 * A small segment router. A segment starting with `:` is a parameter; any other segment is literal,
 * colons included (`balances:getNative`), which find-my-way would need `::` escapes for. Among
 * routes of the same shape, the one with more literal segments wins (literal beats parameter).
 */
export class Router {
  private readonly table = new Map<string, Compiled[]>();

  add(route: RouteDef): void {
    const parts = split(route.path);
    const segments = parts.map((s) => (s.startsWith(':') ? null : s));
    const names = parts.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
    const key = `${route.service} ${route.method} ${parts.length}`;
    const list = this.table.get(key) ?? [];
    list.push({ route, segments, names, literals: segments.filter((s) => s !== null).length });
    list.sort((a, b) => b.literals - a.literals);
    this.table.set(key, list);
  }

  match(service: Service, method: string, path: string): RouteMatch | null {
    // Segments are compared decoded, so `balances%3AgetNative` finds `balances:getNative`.
    const parts = split(path).map(safeDecode);
    const list = this.table.get(`${service} ${method} ${parts.length}`);
    if (!list) return null;
    outer: for (const c of list) {
      const values: string[] = [];
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i];
        if (seg === null) values.push(parts[i]);
        else if (seg !== parts[i]) continue outer;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < c.names.length; i++) params[c.names[i]] = values[i];
      return { route: c.route, params };
    }
    return null;
  }

  routes(): RouteDef[] {
    return [...this.table.values()].flat().map((c) => c.route);
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function safeDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
