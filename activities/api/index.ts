// The Data API client's public surface.
export { createDataApiClient, type DataApiClient, type DataApiClientOptions, type CallOptions, type PagesOptions, type ClientStats, type BoundEndpoints } from './client.ts';
export { endpoints } from './endpoints/index.ts';
export { newMeter, type RequestMeter } from './requestMeter.ts';
export * from './endpoints/primaryNetwork.ts';
export * from './endpoints/evm.ts';
export * from './endpoints/metrics.ts';
export * from './endpoints/signatureAggregation.ts';
export { CU, type Endpoint, type ListEndpoint, type PageParams, type ParamsOf, type ResponseOf, type ItemOf, type Service } from './endpoint.ts';
export {
  DataApiError,
  RetryableApiError,
  NonRetryableApiError,
  InvalidPageTokenError,
  QuotaExhaustedError,
  ResponseValidationError,
  PaginationLoopError,
  isDataApiError,
  type ApiErrorKind,
  type RetryReason,
} from './errors.ts';
export { paginate, type Page } from './paginate.ts';
export { RateLimiter, NoUsableKeyError, type Grant, type QuotaHeaders } from './rateLimiter.ts';
export { TIER_BUDGETS, METRICS_BUDGET, type QuotaTier, type RateLimitOverride } from './quotaBudget.ts';
export { withRetries, backoffDelayMs, parseRetryAfterMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.ts';
export * as schemas from './schemas/index.ts';
export type * from './schemas/index.ts';
