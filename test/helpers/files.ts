import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (any depth), as paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
