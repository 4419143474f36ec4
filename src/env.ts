/** Bindings and vars of the Worker (wrangler.toml). Secrets are optional strings. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  JOBS: Queue<unknown>;
  JOB_SLOT: DurableObjectNamespace<import("./db/job-slot").JobSlot>;
  ASSETS?: Fetcher;
  /** Grants, clients and tokens of the OAuth provider in front of /mcp (src/oauth/). */
  OAUTH_KV?: KVNamespace;

  APP_VERSION?: string;
  DEMO_MODE?: string;
  CORS_ALLOWED_ORIGINS?: string;
  DEFAULT_TIMEZONE?: string;
  DEFAULT_USER_ID?: string;
  POLL_INTERVAL_SECONDS?: string;
  IMAP_HOST?: string;
  IMAP_PORT?: string;
  IMAP_TLS?: string;
  IMAP_USER?: string;
  IMAP_PASSWORD?: string;
  IMAP_MAILBOX?: string;
  MODEL_API_KEY?: string;
  MODEL_BASE_URL?: string;
  MODEL_NAME?: string;
  EMBEDDING_MODEL?: string;
  NOTIFY_PROVIDER?: string;
  NTFY_URL?: string;
  NOTIFY_TO?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  TWILIO_BASE_URL?: string;
  INBOX_PREFIX?: string;
  SESSION_SECRET?: string;
  ALLOW_REMOTE_TOFU?: string;
  /** Set by `npm start` when wrangler dev is bound beyond loopback: nothing counts as local then. */
  PUBLIC_BIND?: string;
  /** Base URL of the local model bridge (`npm run model-bridge`) serving cli_a/cli_b/cli_c. */
  MODEL_BRIDGE_URL?: string;
  /** Shared secret the bridge expects as its Bearer token (secret; optional on loopback). */
  MODEL_BRIDGE_TOKEN?: string;
  /** Time limit of one insights generation, in seconds (default 180). */
  INSIGHTS_TIMEOUT_SECONDS?: string;
  /** Time limit of one day-summaries job, in seconds (default 600). */
  DAY_SUMMARY_TIMEOUT_SECONDS?: string;
}

/** "true"/"1"/"yes" (any case) → true; anything else → false. */
export function flag(value: string | undefined): boolean {
  return value !== undefined && /^(true|1|yes|on)$/i.test(value.trim());
}

export function isDemo(env: Env): boolean {
  return flag(env.DEMO_MODE);
}
