import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR } from './sqlFile.ts';

export interface SchemaFile {
  file: string;
  sha256: string;
  text: string;
}

/**
 * The sql/schema/*.sql files (in name order) not yet applied in this version of their text. Every
 * file is idempotent (IF NOT EXISTS / OR REPLACE), and each applied version is recorded by content
 * hash in _glacier_schema_files, so opening an up-to-date warehouse runs nothing and a changed file
 * is re-applied once. Needs _glacier_schema_files (ops/schemaMigrations.sql).
 */
export async function pendingSchemaFiles(connection: DuckDBConnection): Promise<SchemaFile[]> {
  const dir = fileURLToPath(new URL('schema/', SQL_DIR));
  const known = new Map(
    (await connection.runAndReadAll('SELECT file, sha256 FROM _glacier_schema_files')).getRowObjectsJS().map((r) => [String(r.file), String(r.sha256)]),
  );
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => {
      const text = readFileSync(`${dir}${file}`, 'utf8');
      return { file, text, sha256: createHash('sha256').update(text).digest('hex') };
    })
    .filter((f) => known.get(f.file) !== f.sha256);
}
