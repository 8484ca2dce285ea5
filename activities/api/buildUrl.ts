import type { BuiltRequest } from './endpoint.ts';

/** Base URL + path + query. Lists are comma-joined (the interface's form); undefined values are left out. */
export function buildUrl(baseUrl: string, request: BuiltRequest): { url: string; target: string } {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (value === undefined) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const query = params.toString();
  const target = query ? `${request.path}?${query}` : request.path;
  return { url: `${baseUrl.replace(/\/+$/, '')}${target}`, target };
}
