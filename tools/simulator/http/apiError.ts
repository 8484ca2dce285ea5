/** Reason phrases of the interface's error table; `error` in an ErrorBody repeats them. */
export const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  message: string | string[];
  statusCode: number;
  error: string;
}

/** Thrown by routes and middleware; the server turns it into an ErrorBody with the same status. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly messages: string | string[];
  /** Extra response headers (retry-after on 429). */
  readonly headers: Record<string, string>;

  constructor(status: number, message: string | string[], headers: Record<string, string> = {}) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.status = status;
    this.messages = message;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { message: this.messages, statusCode: this.status, error: REASON_PHRASES[this.status] ?? 'Error' };
  }
}

export const badRequest = (message: string | string[]): ApiError => new ApiError(400, message);
export const notFound = (message: string): ApiError => new ApiError(404, message);
