import { describe, expect, it } from 'vitest';
import { capturedLogger } from '../test/helpers/silentLogger.ts';

describe('logger', () => {
  it('redacts API keys by configuration wherever they are logged', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ apiKey: 'k-secret-1', headers: { 'x-service-api-key': 'k-secret-2' }, request: { headers: { 'x-service-api-key': 'k-secret-3' } } }, 'request');
    logger.info({ client: { apiKeys: ['k-secret-4'] } }, 'client');
    const out = lines();
    expect(out).toContain('[redacted]');
    expect(out).not.toMatch(/k-secret/);
  });
});
