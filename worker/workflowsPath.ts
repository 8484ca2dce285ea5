import { fileURLToPath } from 'node:url';

/** Entry of the workflow bundle, resolved relative to this file so any cwd works. */
export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
