import { readFileSync } from 'node:fs';

/** The repository's sql/ folder. */
export const SQL_DIR = new URL('../../sql/', import.meta.url);

const cache = new Map<string, string>();

/** Text of a file under sql/ (cached: the files are part of the code). */
export function sqlFile(relativePath: string): string {
  let text = cache.get(relativePath);
  if (text === undefined) {
    text = readFileSync(new URL(relativePath, SQL_DIR), 'utf8');
    cache.set(relativePath, text);
  }
  return text;
}
