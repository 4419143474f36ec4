import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiException, MultiException } from "chanfana";
import { z } from "zod";
import {
  ApiError,
  codeForStatus,
  DomainError,
  ERROR_CODES,
  type ErrorCode,
  type FailureKind,
  issuesFromZod,
  validationError,
} from "../lib/errors";
import { log } from "../lib/log";

export * from "../lib/errors";

/** The envelope schema, for OpenAPI responses. */
export const ErrorEnvelope = z
  .object({
    error: z.string(),
    code: z
      .enum(ERROR_CODES)
      .describe("The error catalogue (src/lib/errors.ts): one code per kind of failure"),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "ErrorEnvelope", description: "Every 4xx and 5xx response body." });

export function envelope(
  status: number,
  error: string,
  code?: ErrorCode,
  details: Record<string, unknown> | null = null,
) {
  return { error, code: code ?? codeForStatus(status), details };
}

function errorResponse(c: Context, err: ApiError): Response {
  return c.json(envelope(err.status, err.message, err.code, err.details), err.status as 400);
}

/** The HTTP status of each kind of domain failure. */
const HTTP_STATUS: Record<FailureKind, number> = {
  not_found: 404,
  conflict: 409,
  invalid: 422,
  refused: 422,
  gone: 410,
  too_large: 413,
  unsupported: 415,
};

/** Maps anything thrown to the envelope; unexpected errors are logged, never leaked. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError)
    return new ApiError(HTTP_STATUS[err.kind], err.message, err.code, err.details);
  return toApiError(asKnown(err));
}

/** Framework and schema failures as the domain's Invalid, or a status of their own. */
function asKnown(err: unknown): ApiError | DomainError {
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
