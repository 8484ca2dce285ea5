// Failure type names shared by activities (which throw them) and workflows (which react to them).
// Plain constants: no imports, safe in the workflow sandbox; part of the shared kernel (common/).
export const QUOTA_EXHAUSTED = 'QuotaExhausted';
export const NON_RETRYABLE_API = 'NonRetryableApiError';
export const RESPONSE_VALIDATION = 'ResponseValidationError';
export const WAREHOUSE_MEMORY = 'WarehouseMemoryError';
