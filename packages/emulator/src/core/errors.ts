/**
 * Errors the emulator answers with. Every non-2xx carries its reason in the X-Message header
 * (spec part 1, "Errors"); 401/403 have an empty body, 400 adds field errors in the body.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors: FieldError[] = []) => new ApiError(400, message, fieldErrors);
export const fieldError = (field: string, message: string) => new ApiError(400, `${field}: ${message}`, [{ field, message }]);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, [], { "Retry-After": String(retryAfterSeconds) });
