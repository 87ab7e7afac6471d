/**
 * Typed errors with stable snake_case codes, thrown by domain code and mapped to RFC 9457 problem+json in
 * exactly one place (api/http/problems.ts). `status` is the HTTP status the edge answers with.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, detail: string, errors?: FieldError[]) =>
  new AppError(400, code, detail, errors);
export const invalidField = (field: string, message: string) =>
  badRequest('validation_failed', 'The request is invalid', [{ field, message }]);
export const unauthorized = (code: string, detail: string) => new AppError(401, code, detail);
export const forbidden = (code: string, detail: string) => new AppError(403, code, detail);
export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found`);
export const conflict = (code: string, detail: string) => new AppError(409, code, detail);
export const tooLarge = (code: string, detail: string) => new AppError(413, code, detail);
export const unavailable = (code: string, detail: string) => new AppError(503, code, detail);
