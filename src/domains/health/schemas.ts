import { z } from "zod";

export const HealthResponse = z
  .object({
    status: z.enum(["ok", "degraded", "stale"]),
    reasons: z.array(z.string()).describe("Why the status is not ok, in words (empty when ok)"),
    version: z.string(),
    backend: z.string(),
    imap_last_poll: z.string().nullable(),
    imap_poll_age_seconds: z.number().int().nullable(),
    last_transaction_at: z.string().nullable(),
    last_transaction_age_seconds: z.number().int().nullable(),
    parse_failures_7d: z.number().int().nullable(),
    ai_categorization_status: z.enum(["ok", "degraded"]).nullable(),
    ai_last_error_reason: z.string().nullable(),
    auth_required: z.boolean(),
    quiet_institutions: z.number().int().nullable(),
    checked_at: z.string(),
  })
  .meta({ id: "HealthResponse" });
export type HealthResponse = z.infer<typeof HealthResponse>;
