import { z } from "zod";
import { AI_ACTIONS } from "../../ai/readiness";
import { AI_TASKS } from "../../ai/routing";
import { GENERATION_PROVIDERS } from "./schemas";

export const TestModelKeyRequest = z
  .object({
    provider: z
      .enum(GENERATION_PROVIDERS)
      .exclude(["disabled"])
      .nullable()
      .optional()
      .describe("Default hosted"),
    api_key: z
      .string()
      .max(500)
      .nullable()
      .optional()
      .describe("Hosted only; default the configured key. Never stored."),
    model: z.string().max(200).nullable().optional(),
  })
  .meta({ id: "TestModelKeyRequest" });

export const TestModelKeyResponse = z
  .object({
    ok: z.boolean(),
    verdict: z.enum(["reachable", "key_rejected", "model_not_found", "unreachable", "not_configured"]),
    error: z.string().nullable(),
    message: z.string().describe("The verdict in words"),
  })
  .meta({ id: "TestModelKeyResponse" });

export const TestObjectBackupRequest = z
  .object({ bucket: z.string().min(1).max(200), prefix: z.string().max(500).nullable().optional() })
  .meta({ id: "TestObjectBackupRequest" });

export const TestObjectBackupResponse = z
  .object({ ok: z.boolean(), error: z.string().nullable(), warnings: z.array(z.string()) })
  .meta({ id: "TestObjectBackupResponse" });

export const ObjectBackupStatusResponse = z
  .object({
    enabled: z.boolean(),
    bucket: z.string().nullable(),
    prefix: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    last_success_at: z.string().nullable(),
    last_error: z.string().nullable(),
    consecutive_failures: z.number().int(),
    uploaded_count: z.number().int().describe("Daily backups present under the prefix"),
    deleted_count: z.number().int(),
    objects_total: z.number().int(),
  })
  .meta({ id: "ObjectBackupStatusResponse" });

export const AiReadinessResponse = z
  .object({
    actions: z.array(
      z.object({
        action: z.enum(AI_ACTIONS),
        label: z.string().describe("The action in words"),
        task: z.enum(AI_TASKS),
        provider: z.string().describe("The task's provider value (hosted, cli_a, cli_b, cli_c, disabled)"),
        provider_label: z.string().describe("The provider in words"),
        model: z.string().nullable(),
        ready: z.boolean().describe("True when pressing the action can reach a model now"),
        reason: z.string().nullable().describe("Why it cannot, in words (null when ready)"),
        needs: z.string().describe("What the action needs, in words, whether ready or not"),
        settings_url: z.string().describe("Where to set it up in the dashboard"),
      }),
    ),
    tasks: z
      .array(
        z.object({
          task: z.enum(AI_TASKS),
          provider: z.string(),
          provider_label: z.string(),
          model: z.string().nullable(),
          ready: z.boolean().describe("The provider can be reached now (consent switches aside)"),
          reason: z.string().nullable(),
        }),
      )
      .describe("Per task of Settings → Intelligence: can its chosen provider be reached"),
  })
  .meta({ id: "AiReadinessResponse" });
