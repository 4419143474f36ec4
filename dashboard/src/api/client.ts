// The one way the dashboard talks to the Worker: openapi-fetch typed by schema.d.ts, which
// `npm run dashboard:types` generates from the committed openapi.json (typecheck fails on drift).
import createClient, { type Middleware } from "openapi-fetch";
import { ApiError, toApiError } from "./errors";
import type { paths } from "./schema";

/** Empty when the dashboard is served by the Worker itself; the Worker's URL for a Pages deploy. */
export const API_BASE: string = (import.meta.env.VITE_API_BASE_URL ?? "").replace(/\/+$/, "");

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: "include" });

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever the API answers 401 (except a failed sign-in), so the app can show the login page. */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

const watchAuth: Middleware = {
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.includes("/api/v1/auth/")) {
      for (const fn of unauthorizedListeners) fn();
    }
    return undefined;
  },
};
api.use(watchAuth);

type WriteListener = (entryId: string) => void;
const writeListeners = new Set<WriteListener>();

/** Hears every reversible write: the Worker names its ledger entry in X-Activity-Id. */
export function onReversibleWrite(fn: WriteListener): () => void {
  writeListeners.add(fn);
  return () => writeListeners.delete(fn);
}

const watchWrites: Middleware = {
  onResponse({ response }) {
    const id = response.ok ? response.headers.get("x-activity-id") : null;
    if (id) for (const fn of writeListeners) fn(id);
    return undefined;
  },
};
api.use(watchWrites);

/** Told after an undo (or any change made outside a page's own code) so loaded pages refetch. */
export const DATA_CHANGED = "fj:data-changed";

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, or an ApiError carrying the envelope (or a network failure). */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch (err) {
    throw new ApiError(
      0,
      "NETWORK_ERROR",
      "Can't reach the Finance Journal server. Check that it is running.",
      {
        cause: String(err),
      },
    );
  }
  if (!result.response.ok || result.error !== undefined) throw toApiError(result.error, result.response);
  return result.data as T;
}
