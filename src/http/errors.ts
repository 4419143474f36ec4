import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiException, MultiException } from "chanfana";
import { z } from "zod";
import { log } from "../lib/log";

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

/** The envelope schema, for OpenAPI responses. */
export const ErrorEnvelope = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "ErrorEnvelope", description: "Every 4xx and 5xx response body." });

export function envelope(
  status: number,
  error: string,
  code?: string,
  details: Record<string, unknown> | null = null,
) {
  return { error, code: code ?? codeForStatus(status), details };
}

export function errorResponse(c: Context, err: ApiError): Response {
  return c.json(envelope(err.status, err.message, err.code, err.details), err.status as 400);
}

/** Maps anything thrown to the envelope; unexpected errors are logged, never leaked. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof MultiException) {
    const issues = err.errors.map((e) => ({
      loc: ((e as ApiException & { path?: string[] }).path ?? []).map(String),
      msg: e.message,
      type: "value_error",
    }));
    return validationError(issues);
  }
  if (err instanceof z.ZodError) return validationError(issuesFromZod(err));
  if (err instanceof ApiException) {
    return new ApiError(err.status, err.message, codeForStatus(err.status));
  }
  if (err instanceof HTTPException) {
    return new ApiError(err.status, err.message || defaultMessage(err.status));
  }
  return new ApiError(500, "Internal server error");
}

function defaultMessage(status: number): string {
  return codeForStatus(status).toLowerCase().replaceAll("_", " ");
}

export function onError(err: unknown, c: Context): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    log("error", "request.failed", {
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
  }
  return errorResponse(c, apiError);
}

export function onNotFound(c: Context): Response {
  return errorResponse(c, new ApiError(404, `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));
}
