// The logger type every layer takes: pino's. Type only, so the kernel loads no logging library; the
// one logger is built by worker/logger.ts (with its redaction of API keys).
export type { Logger } from 'pino';
