// Every 4xx/5xx body is {error, code, details}; 422s list each problem in details.errors.
export interface ErrorEnvelope {
  error: string;
  code: string;
  details: Record<string, unknown> | null;
}

interface FieldError {
  loc?: unknown[];
  msg?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
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
      const loc = (e.loc ?? []).filter((p) => p !== "body" && p !== "query" && p !== "path").join(".");
      return loc ? `${loc.replaceAll("_", " ")}: ${e.msg ?? "invalid"}` : (e.msg ?? "invalid value");
    });
  }
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

export function toApiError(body: unknown, response: Response): ApiError {
  if (isEnvelope(body)) {
    const message = response.status === 405 ? (FALLBACK[405] as string) : body.error;
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
