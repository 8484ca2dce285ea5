import { pino, type Logger, type DestinationStream } from 'pino';

/**
 * The one logger. API keys are removed by pino's redaction config (paths below), so a key cannot
 * reach a log line even when a request or config object is logged whole.
 */
export const REDACT_PATHS = [
  'apiKey',
  'apiKeys',
  'key',
  'headers["x-service-api-key"]',
  'req.headers["x-service-api-key"]',
  'request.headers["x-service-api-key"]',
  '*.apiKey',
  '*.apiKeys',
  '*.headers["x-service-api-key"]',
  'GLACIER_API_KEY',
  '*.GLACIER_API_KEY',
];

export function createLogger(options: { level?: string; destination?: DestinationStream; base?: Record<string, unknown> } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { app: 'glacier-etl', ...options.base },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination(2),
  );
}

export type { Logger };
