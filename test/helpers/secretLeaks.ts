import { readFileSync } from 'node:fs';

/** One line per secret that `text` holds, naming it and `where` it was found. */
export function secretsIn(text: string, where: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s)).map((s) => `${s} in ${where}`);
}

/** One line per secret found in each file, its bytes read as latin1 (binary files included). */
export function secretsInFiles(files: readonly string[], secrets: readonly string[]): string[] {
  return files.flatMap((f) => secretsIn(readFileSync(f).toString('latin1'), f, secrets));
}
