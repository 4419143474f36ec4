import { z } from "zod";
import { isValidTimeZone } from "../../lib/time";

const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
const CATEGORIZATION_PROVIDERS = ["hosted", "cli_b", "disabled"] as const;
export const GENERATION_PROVIDERS = ["cli_a", "hosted", "cli_b", "cli_c", "disabled"] as const;
/** A DNS name as settings hold it (trimmed, lower case): a host or domain of the mail path. */
const dnsName = (what: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(253)
    .regex(/^[a-z0-9.-]+$/, `must be a ${what}`);

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const Effort = z.enum(REASONING_EFFORTS).nullable();
const CatProvider = z.enum(CATEGORIZATION_PROVIDERS);
const GenProvider = z.enum(GENERATION_PROVIDERS);
const ScheduleTime = z.string().regex(HHMM, "must be 24-hour HH:MM (00:00 to 23:59)");
const TimeZone = z.string().refine(isValidTimeZone, "must be an IANA time zone such as America/Toronto");
const Memo = z.string().max(2000);
const Model = z.string().max(200);

/**
 * Every user setting, declared once, as `GET /api/v1/config` shows it (a default here is the
 * documented default of an optional response field). The stored document and the update body
 * derive from this shape, so a new setting is one line here.
 */
const Settings = z.object({
  enable_daily_summaries: z.boolean(),
  ai_categorization_enabled: z.boolean(),
  ai_extraction_enabled: z.boolean(),
  timezone: z.string(),
  ai_receipt_parsing_enabled: z.boolean().default(false),
  ai_statement_parsing_enabled: z.boolean().default(false),
  auth_bypass_for_dev: z.boolean().default(false),
  passwordless_acknowledged: z.boolean().default(false),
  categorization_provider: CatProvider.default("disabled"),
  daily_summary_provider: GenProvider.default("disabled"),
  document_parsing_provider: GenProvider.default("disabled"),
  insights_provider: GenProvider.default("disabled"),
  categorization_model: z.string().nullable(),
  daily_summary_model: z.string().nullable(),
  document_parsing_model: z.string().nullable(),
  insights_model: z.string().nullable(),
  categorization_reasoning_effort: Effort,
  daily_summary_reasoning_effort: Effort,
  document_parsing_reasoning_effort: Effort,
  insights_reasoning_effort: Effort,
  daily_summary_schedule_time: ScheduleTime.default("19:00"),
  insights_user_memo: z.string().nullable(),
  object_backup_enabled: z.boolean().default(false),
  object_backup_bucket: z.string().nullable(),
  object_backup_prefix: z.string().nullable(),
  tax_tracking_enabled: z.boolean().default(true),
  // Alert intake (issues 26, 27): rows printed in another currency, and forwards from addresses
  // not listed here (nor confirmed once), go to the attention queue with the reason in words.
  journal_currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as CAD")
    .default("CAD"),
  forwarding_addresses: z.array(z.string().email().max(320)).max(50).default([]),
  // Forged forwards: trust comes from what the receiving server added. Its
  // Authentication-Results are known by their authserv-id (Cloudflare Email Routing's by default;
  // an IMAP mailbox's own, such as mx.google.com, when mail arrives that way), and an ARC set's
  // verdict counts only from the sealers (ARC-Seal d= domains) listed here.
  receiving_authserv_ids: z.array(dnsName("host name")).max(10).default(["mx.cloudflare.net"]),
  arc_trusted_sealers: z.array(dnsName("domain")).max(20).default([]),
});
type SettingsShape = typeof Settings.shape;

/** The shape with `f` applied to every field; `R` says what `f` makes of each. */
const mapShape = <R>(shape: Record<string, z.ZodType>, f: (field: z.ZodType) => z.ZodType) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, f(v)])) as R;

/** A stored field always has a value: its documented default, else null (nullable) or false (a switch). */
type WithDefault<T> = T extends z.ZodDefault<z.ZodType> ? T : z.ZodDefault<T & z.ZodType>;
function withDefault(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodDefault) return field;
  if (field instanceof z.ZodNullable) return field.default(null);
  if (field instanceof z.ZodBoolean) return field.default(false);
  throw new Error("a stored setting needs a default");
}

/** An update field: the bare type, null (back to the default) or absent (unchanged). */
type Bare<T> = T extends z.ZodDefault<infer I> ? Bare<I> : T extends z.ZodNullable<infer I> ? Bare<I> : T;
type Patch<T> = z.ZodOptional<z.ZodNullable<Bare<T> & z.ZodType>>;
function bare(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodDefault || field instanceof z.ZodNullable)
    return bare(field.unwrap() as z.ZodType);
  return field;
}
const patch = (field: z.ZodType) => bare(field).nullable().optional();

/** The stored settings (the app_config document), each with its default. */
type DeploymentDecided = "ai_categorization_enabled" | "timezone";
export const StoredConfig = z.object({
  ...mapShape<{ [K in Exclude<keyof SettingsShape, DeploymentDecided>]: WithDefault<SettingsShape[K]> }>(
    Settings.omit({ ai_categorization_enabled: true, timezone: true }).shape,
    withDefault,
  ),
  // Null: the deployment decides (on with a model API key; DEFAULT_TIMEZONE; DEFAULT_USER_ID).
  ai_categorization_enabled: z.boolean().nullable().default(null),
  timezone: z.string().nullable().default(null),
  user_id: z.string().nullable().default(null),
  // The owner's read-only switch (SPEC lists demo_mode writable): on, the journal refuses writes as
  // the demo does, except the configuration itself (to switch it off) and sign-in (src/http/demo.ts).
  demo_mode: z.boolean().default(false),
});
export type StoredConfig = z.infer<typeof StoredConfig>;

export const AppConfigResponse = z
  .object({
    storage: z.string(),
    demo_mode: z.boolean(),
    read_only_switch: z
      .boolean()
      .describe(
        "demo_mode comes from the owner's stored switch (PUT demo_mode: false turns it off), not from the deployment's public demo",
      ),
    user_id: z.string(),
    hosted_enabled: z.boolean(),
    cloud_available: z.boolean(),
    cli_a_available: z.boolean(),
    cli_b_available: z.boolean(),
    cli_c_available: z.boolean(),
    vendor_oauth_connected: z.boolean(),
    vendor_oauth_email: z.string().nullable(),
    ...Settings.shape,
  })
  .meta({ id: "AppConfigResponse" });
export type AppConfigResponse = z.infer<typeof AppConfigResponse>;

/** What an update may send: tighter than what a read shows (lengths, a real time zone). */
const SettingsInput = Settings.extend({
  timezone: TimeZone,
  categorization_model: Model,
  daily_summary_model: Model,
  document_parsing_model: Model,
  insights_model: Model,
  insights_user_memo: Memo,
  object_backup_bucket: z.string().max(200),
  object_backup_prefix: z.string().max(500),
});
type InputShape = typeof SettingsInput.shape;

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/**
 * Not strict: the body of GET /config comes back as an update. Keys that are
 * not settings (unknown, or response-only such as `hosted_enabled`) are ignored and named in the
 * `X-Config-Ignored` response header; `storage` is accepted and ignored too (D1 is the only one).
 */
export const AppConfigUpdateRequest = z
  .object({
    storage: opt(z.string().max(100)),
    demo_mode: opt(z.boolean()),
    user_id: opt(z.string().trim().min(1).max(200)),
    ...mapShape<{ [K in keyof InputShape]: Patch<InputShape[K]> }>(SettingsInput.shape, patch),
  })
  .meta({ id: "AppConfigUpdateRequest" });
export type AppConfigUpdateRequest = z.infer<typeof AppConfigUpdateRequest>;
