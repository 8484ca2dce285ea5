import { describe, expect, it } from 'vitest';
import { classifyHttpFailure } from '../../activities/api/classifyFailure.ts';
import { InvalidPageTokenError, NonRetryableApiError, RetryableApiError } from '../../activities/api/errors.ts';

/** A stale page token is recognised by what was sent (a token) and the status (400), never by the message's wording. */
const request = { method: 'GET', target: '/v1/chains/43114/blocks' };
const classify = (status: number, body: unknown, sentPageToken: boolean) =>
  classifyHttpFailure(request, status, typeof body === 'string' ? body : JSON.stringify(body), new Headers(), { sentPageToken, scrub: (t) => t });

describe('classifyHttpFailure: page tokens', () => {
  it('any 400 to a request that carried a page token is a stale token, whatever the message', () => {
    for (const body of [
      { message: 'Page token expired', statusCode: 400, error: 'Bad Request' },
      { message: 'Invalid page token', statusCode: 400 },
      { message: ['cursor could not be decoded'], statusCode: 400, error: 'Bad Request' },
      { message: 'Bad Request', statusCode: 400 },
      'not json at all',
      '',
    ]) {
      const error = classify(400, body, true);
      expect(error, JSON.stringify(body)).toBeInstanceOf(InvalidPageTokenError);
      expect(error).toMatchObject({ kind: 'invalid-page-token', status: 400 });
    }
  });

  it('a 400 without a page token is a plain non-retryable error, even if it mentions a token', () => {
    const error = classify(400, { message: 'Invalid page token' }, false);
    expect(error).toBeInstanceOf(NonRetryableApiError);
    expect(error).not.toBeInstanceOf(InvalidPageTokenError);
    expect(error.message).toContain('Invalid page token');
  });

  it('other statuses with a page token keep their own class', () => {
    expect(classify(404, { message: 'Page token not found' }, true)).not.toBeInstanceOf(InvalidPageTokenError);
    expect(classify(422, { message: 'x' }, true)).toBeInstanceOf(NonRetryableApiError);
    expect(classify(503, { message: 'Page token expired' }, true)).toBeInstanceOf(RetryableApiError);
  });
});
