/** Quotes a catalog identifier after checking it is one of ours (lower-case word): never user input. */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a warehouse identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** A string literal for the few places DuckDB takes no parameter (COPY target paths). */
export function sqlString(value: string): string {
  if (value.includes('\u0000')) throw new Error('NUL in SQL string');
  return `'${value.replaceAll("'", "''")}'`;
}
