import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Entry of the workflow bundle, resolved relative to this file so any cwd works: the TypeScript
 * source when this module runs from the sources (tests, tsx), the compiled file under dist/ when it
 * runs from the compiled CLI (the same extension as this module).
 */
export const workflowsPath = fileURLToPath(new URL(`../workflows/index${extname(import.meta.url)}`, import.meta.url));
