/**
 * Errors that become the `{error, code, details}` envelope. No HTTP framework here. Services,
 * rules and ingest throw the domain classes (NotFound, Conflict, Invalid, Refused, Gone, TooLarge,
 * Unsupported): a kind of failure with its code and words, no status. Each door maps the kind to its own
 * answer: src/http/errors.ts to an HTTP status, the MCP tools to a tool error. ApiError (a status
 * of its own) stays for what only a door decides: authentication and where a request may come
 * from (401, 403), rate limits (429), outages of what we call (502, 503, 504).
 */
import type { z } from "zod";

/**
 * The error catalogue: every `code` an envelope may carry, once (ErrorEnvelope.code in openapi.json,
 * imported by the dashboard from its generated types). Upper snake case; the one exception is
 * `stale_revert`, spelled as SPEC.md's error table spells it. test/unit/architecture/error-codes.test.ts
 * holds the rules.
 */
export const ERROR_CODES = [
  // By status (STATUS_CODES below); "ERROR" for a 4xx the map does not list.
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "GONE",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "VALIDATION_ERROR",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "NOT_IMPLEMENTED",
  "BAD_GATEWAY",
  "SERVICE_UNAVAILABLE",
  "GATEWAY_TIMEOUT",
  "ERROR",
  // A handler's own: what the person can do about it differs from the status's plain meaning.
  "AI_NOT_CONFIGURED",
  "CATEGORY_DELETED",
  "CROSS_SITE_REQUEST",
  "CSV_MAPPING_NEEDED",
  "DUPLICATE_TRANSACTION",
  "NO_SOURCE_CHECKOUT",
  "NOT_CSV",
  "NOT_IN_EMAIL",
  "NOT_PDF",
  "PDF_TOO_COSTLY",
  "RECEIPT_UNREADABLE",
  "ROW_SETTLED",
  "TOO_MANY_ROWS",
  "stale_revert",
] as const;

/** One code of the catalogue. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The status → code map; a handler may set its own code (for example `stale_revert`). */
const STATUS_CODES: Record<number, ErrorCode> = {
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

export function codeForStatus(status: number): ErrorCode {
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
    readonly code: ErrorCode = codeForStatus(status),
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

/** The kinds of failure a service reports; the doors map each to their own status. */
export type FailureKind =
  | "not_found"
  | "conflict"
  | "invalid"
  | "refused"
  | "gone"
  | "too_large"
  | "unsupported";

/** A failure in the domain's words (no status: see the kind). */
export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly code: ErrorCode,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

/** What was asked for does not exist. */
export class NotFound extends DomainError {
  constructor(
    message: string,
    code: ErrorCode = "NOT_FOUND",
    details: Record<string, unknown> | null = null,
  ) {
    super("not_found", message, code, details);
  }
}

/** The request collides with the current state (a stale version, a job running, a duplicate). */
export class Conflict extends DomainError {
  constructor(message: string, code: ErrorCode = "CONFLICT", details: Record<string, unknown> | null = null) {
    super("conflict", message, code, details);
  }
}

/** The input breaks a rule; `details.errors` says where. */
export class Invalid extends DomainError {
  constructor(issues: ValidationIssue[], message = "Request validation failed") {
    super("invalid", message, "VALIDATION_ERROR", { errors: issues });
  }
}

/**
 * Understood but not done as things stand, in words with its own code: a task not set up
 * (`AI_NOT_CONFIGURED`), content the reader could not read, a mapping still needed.
 */
export class Refused extends DomainError {
  constructor(message: string, code: ErrorCode, details: Record<string, unknown> | null = null) {
    super("refused", message, code, details);
  }
}

/** What was asked for existed but has expired (a staged preview past its lifetime). */
export class Gone extends DomainError {
  constructor(message: string, code: ErrorCode = "GONE", details: Record<string, unknown> | null = null) {
    super("gone", message, code, details);
  }
}

/** The input costs more than its bound (bytes, rows, pages). */
export class TooLarge extends DomainError {
  constructor(
    message: string,
    details: Record<string, unknown> | null = null,
    code: ErrorCode = "PAYLOAD_TOO_LARGE",
  ) {
    super("too_large", message, code, details);
  }
}

/** A kind of file or content this journal does not read. */
export class Unsupported extends DomainError {
  constructor(
    message: string,
    details: Record<string, unknown> | null = null,
    code: ErrorCode = "UNSUPPORTED_MEDIA_TYPE",
  ) {
    super("unsupported", message, code, details);
  }
}

export const notFound = (what = "Resource") => new NotFound(`${what} not found`);
export const conflict = (
  message: string,
  code: ErrorCode = "CONFLICT",
  details: Record<string, unknown> | null = null,
) => new Conflict(message, code, details);

export function validationError(issues: ValidationIssue[], message = "Request validation failed"): Invalid {
  return new Invalid(issues, message);
}

export function issuesFromZod(error: z.ZodError, prefix: (string | number)[] = []): ValidationIssue[] {
  return error.issues.map((i) => ({
    loc: [...prefix, ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
}
