/**
 * Errors that become the `{error, code, details}` envelope. No HTTP framework here: services,
 * rules and ingest throw these; src/http/errors.ts turns them into responses.
 */
import type { z } from "zod";

/** The status → code map; a handler may set its own code (for example `stale_revert`). */
export const STATUS_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "VALIDATION_ERROR",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  501: "NOT_IMPLEMENTED",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

export function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? "INTERNAL_ERROR" : "ERROR");
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An error that becomes the `{error, code, details}` envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeForStatus(status),
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export const notFound = (what = "Resource") => new ApiError(404, `${what} not found`);
export const conflict = (
  message: string,
  code = "CONFLICT",
  details: Record<string, unknown> | null = null,
) => new ApiError(409, message, code, details);

export function validationError(issues: ValidationIssue[], message = "Request validation failed"): ApiError {
  return new ApiError(422, message, "VALIDATION_ERROR", { errors: issues });
}

export function issuesFromZod(error: z.ZodError, prefix: (string | number)[] = []): ValidationIssue[] {
  return error.issues.map((i) => ({
    loc: [...prefix, ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
}
