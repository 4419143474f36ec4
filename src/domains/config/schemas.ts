import { z } from "zod";
import { isValidTimeZone } from "../../lib/time";

export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export const CATEGORIZATION_PROVIDERS = ["hosted", "cli_b", "disabled"] as const;
export const GENERATION_PROVIDERS = ["cli_a", "hosted", "cli_b", "cli_c", "disabled"] as const;
export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const Effort = z.enum(REASONING_EFFORTS).nullable();
const CatProvider = z.enum(CATEGORIZATION_PROVIDERS);
const GenProvider = z.enum(GENERATION_PROVIDERS);
const ScheduleTime = z.string().regex(HHMM, "must be 24-hour HH:MM (00:00 to 23:59)");
const TimeZone = z.string().refine(isValidTimeZone, "must be an IANA time zone such as America/Toronto");
const Memo = z.string().max(2000);

/** The writable settings with their defaults (SPEC.md's AppConfigResponse optional fields). */
export const StoredConfig = z.object({
  ai_categorization_enabled: z.boolean().nullable().default(null),
  ai_extraction_enabled: z.boolean().default(false),
  enable_daily_summaries: z.boolean().default(false),
  timezone: z.string().nullable().default(null),
  user_id: z.string().nullable().default(null),
  ai_receipt_parsing_enabled: z.boolean().default(false),
  ai_statement_parsing_enabled: z.boolean().default(false),
  auth_bypass_for_dev: z.boolean().default(false),
  passwordless_acknowledged: z.boolean().default(false),
  categorization_provider: CatProvider.default("disabled"),
  daily_summary_provider: GenProvider.default("disabled"),
  document_parsing_provider: GenProvider.default("disabled"),
  insights_provider: GenProvider.default("disabled"),
  categorization_model: z.string().nullable().default(null),
  daily_summary_model: z.string().nullable().default(null),
  document_parsing_model: z.string().nullable().default(null),
  insights_model: z.string().nullable().default(null),
  categorization_reasoning_effort: Effort.default(null),
  daily_summary_reasoning_effort: Effort.default(null),
  document_parsing_reasoning_effort: Effort.default(null),
  insights_reasoning_effort: Effort.default(null),
  daily_summary_schedule_time: z.string().default("19:00"),
  insights_user_memo: z.string().nullable().default(null),
  object_backup_enabled: z.boolean().default(false),
  object_backup_bucket: z.string().nullable().default(null),
  object_backup_prefix: z.string().nullable().default(null),
  tax_tracking_enabled: z.boolean().default(true),
});
export type StoredConfig = z.infer<typeof StoredConfig>;

export const AppConfigResponse = z
  .object({
    storage: z.string(),
    demo_mode: z.boolean(),
    user_id: z.string(),
    hosted_enabled: z.boolean(),
    cloud_available: z.boolean(),
    cli_a_available: z.boolean(),
    cli_b_available: z.boolean(),
    cli_c_available: z.boolean(),
    vendor_oauth_connected: z.boolean(),
    vendor_oauth_email: z.string().nullable(),
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
  })
  .meta({ id: "AppConfigResponse" });
export type AppConfigResponse = z.infer<typeof AppConfigResponse>;

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const AppConfigUpdateRequest = z
  .object({
    storage: opt(z.string()),
    demo_mode: opt(z.boolean()),
    user_id: opt(z.string().trim().min(1).max(200)),
    timezone: opt(TimeZone),
    enable_daily_summaries: opt(z.boolean()),
    ai_categorization_enabled: opt(z.boolean()),
    ai_extraction_enabled: opt(z.boolean()),
    ai_receipt_parsing_enabled: opt(z.boolean()),
    ai_statement_parsing_enabled: opt(z.boolean()),
    auth_bypass_for_dev: opt(z.boolean()),
    passwordless_acknowledged: opt(z.boolean()),
    categorization_provider: opt(CatProvider),
    daily_summary_provider: opt(GenProvider),
    document_parsing_provider: opt(GenProvider),
    insights_provider: opt(GenProvider),
    categorization_model: opt(z.string().max(200)),
    daily_summary_model: opt(z.string().max(200)),
    document_parsing_model: opt(z.string().max(200)),
    insights_model: opt(z.string().max(200)),
    categorization_reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    daily_summary_reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    document_parsing_reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    insights_reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    daily_summary_schedule_time: opt(ScheduleTime),
    insights_user_memo: opt(Memo),
    object_backup_enabled: opt(z.boolean()),
    object_backup_bucket: opt(z.string().max(200)),
    object_backup_prefix: opt(z.string().max(500)),
    tax_tracking_enabled: opt(z.boolean()),
  })
  .strict()
  .meta({ id: "AppConfigUpdateRequest" });
export type AppConfigUpdateRequest = z.infer<typeof AppConfigUpdateRequest>;
