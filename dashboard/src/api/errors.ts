import type { components } from "./schema";

// Every 4xx/5xx body is {error, code, details}; 422s list each problem in details.errors.
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];

/** A code of the server's error catalogue (ErrorEnvelope.code in openapi.json, generated types). */
export type ErrorCode = ErrorEnvelope["code"];

/** Codes of this client's own: the server was not reached, or answered without an envelope. */
type ClientCode = "NETWORK_ERROR" | `HTTP_${number}`;

interface FieldError {
  loc?: unknown[];
  msg?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientCode,
    message: string,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** "amount: must be greater than 0", one per validation problem. */
  get problems(): string[] {
    const errors = this.details?.errors;
    if (!Array.isArray(errors)) return [];
    return errors.map((e: FieldError) => {
      const loc = (e.loc ?? []).filter(
        (p) => p !== "body" && p !== "query" && p !== "path" && typeof p === "string",
      );
      const field = loc.length ? String(loc.at(-1)).replace(/[_.-]+/g, " ") : "";
      const what = problemWords(e.msg);
      return field ? `${field.charAt(0).toUpperCase()}${field.slice(1)} ${what}` : `A value ${what}`;
    });
  }
}

const big = (n: string) => (Number.isFinite(Number(n)) ? Number(n).toLocaleString("en-CA") : n);

/** A validator's message ("Too big: expected number to be <=100000000") as words ("is too large …"). */
export function problemWords(msg: string | undefined): string {
  const m = msg ?? "";
  let r = m.match(/^Too big: expected (\w+) to (?:have )?<=?\s*([\d.]+)/);
  if (r)
    return r[1] === "string"
      ? `is too long (at most ${big(r[2] ?? "")} characters)`
      : `is too large (at most ${big(r[2] ?? "")})`;
  r = m.match(/^Too small: expected (\w+) to (?:have )?>=?\s*([\d.]+)/);
  if (r) {
    if (r[1] === "string") return r[2] === "1" ? "is required" : `is too short (at least ${r[2]} characters)`;
    return `is too small (at least ${big(r[2] ?? "")})`;
  }
  if (/^Invalid input: expected (number|int)/.test(m)) return "must be a number";
  if (/^Invalid input: expected string/.test(m)) return "must be text";
  if (/^Invalid input: expected boolean/.test(m)) return "must be yes or no";
  if (/^Invalid (option|enum)/.test(m)) return "is not one of the choices";
  if (/^Invalid (string|format)|must match pattern|^Invalid ISO/.test(m))
    return "is not in the expected form";
  if (/^Required$|expected .+, received undefined/.test(m)) return "is required";
  if (/^Unrecognized key/.test(m)) return "is not a field this form knows";
  // A message written for people (our own refinements) reads as it is.
  return /^[A-Z][a-z].*:|\b(expected|received)\b/.test(m) ? "is not valid" : m || "is not valid";
}

/** The API refused with this code of the catalogue (a code the contract lacks fails the typecheck). */
export function hasCode(err: unknown, code: ErrorCode): err is ApiError {
  return err instanceof ApiError && err.code === code;
}

function isEnvelope(v: unknown): v is ErrorEnvelope {
  return typeof v === "object" && v !== null && typeof (v as ErrorEnvelope).error === "string";
}

const FALLBACK: Record<number, string> = {
  401: "You are signed out. Sign in to continue.",
  403: "This session or token isn't allowed to do that.",
  404: "That item no longer exists.",
  405: "This is a read-only demo: changes are turned off.",
  409: "Someone changed this in the meantime. Reload and try again.",
  413: "That file is too large.",
  422: "Some values need attention.",
};

/** "… try again later" with a wait (details.retry_after_seconds) says when: "try again in 5 minutes (at 14:05)". */
function withWhen(message: string, details: Record<string, unknown> | null | undefined): string {
  const wait = Number(details?.retry_after_seconds);
  if (!Number.isFinite(wait) || wait <= 0 || !/try again later/i.test(message)) return message;
  const at = new Date(Date.now() + wait * 1000).toLocaleTimeString([], {
    hour: "numeric",
    minute: "2-digit",
  });
  const span =
    wait < 90
      ? `${Math.ceil(wait)} seconds`
      : wait < 5400
        ? `${Math.ceil(wait / 60)} minutes`
        : `${Math.round(wait / 3600)} hours`;
  return message.replace(/try again later/i, `try again in ${span} (at ${at})`);
}

export function toApiError(body: unknown, response: Response): ApiError {
  if (isEnvelope(body)) {
    // The validator's own headline ("Request validation failed · amount: …") is not for people.
    const validator = /^Request validation failed|^Invalid (input|request)/i.test(body.error);
    const message =
      response.status === 405 || (validator && FALLBACK[response.status])
        ? (FALLBACK[response.status] as string)
        : withWhen(body.error, body.details);
    return new ApiError(response.status, body.code, message, body.details ?? null);
  }
  const message =
    FALLBACK[response.status] ??
    (response.status >= 500
      ? "Something went wrong on the server. Try again in a moment."
      : `The server answered ${response.status}.`);
  return new ApiError(response.status, `HTTP_${response.status}`, message, null);
}

/** A sentence (and the list of problems, if any) for anything thrown by an API call. */
export function describeError(err: unknown): { message: string; problems: string[] } {
  if (err instanceof ApiError) return { message: err.message, problems: err.problems };
  if (err instanceof Error) return { message: err.message, problems: [] };
  return { message: "Something unexpected went wrong.", problems: [] };
}
