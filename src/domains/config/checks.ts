/**
 * Configuration checks: test a model connection for a task's provider (answers in words: key
 * rejected, model not found, reachable), test writing the object backup, and the backup's status
 * read from the bucket itself. Keys sent for a test are used once and never stored or echoed.
 */
import { asAiError } from "../../ai/provider";
import { type AiEnv, providerForTask } from "../../ai/routing";
import type { z } from "zod";
import type { ServiceCtx } from "../../lib/context";
import type { TestModelKeyRequest } from "./checks-schemas";
import { getConfig } from "./service";

const TEST_TIMEOUT_MS = 10_000;
const DEFAULT_BACKUP_PREFIX = "backups/daily";

export type Verdict = "reachable" | "key_rejected" | "model_not_found" | "unreachable" | "not_configured";

const WORDS: Record<Verdict, string> = {
  reachable: "Reachable: the provider answered.",
  key_rejected: "Key rejected: the provider refused this API key.",
  model_not_found: "Model not found: the provider does not know this model.",
  unreachable: "Unreachable: no answer from the provider's address.",
  not_configured: "Not configured: there is no key or bridge address to test.",
};

/** One tiny request through the routing layer, as a task with these settings would make it. */
export async function testModel(ctx: ServiceCtx, input: z.infer<typeof TestModelKeyRequest>) {
  const provider = input.provider ?? "hosted";
  const done = (verdict: Verdict, detail?: string) => ({
    ok: verdict === "reachable",
    verdict,
    error: verdict === "reachable" ? null : detail ? `${WORDS[verdict]} (${detail})` : WORDS[verdict],
    message: WORDS[verdict],
  });
  // A key typed for the test is used once, for this request only.
  const env = { ...(ctx.env as AiEnv), MODEL_API_KEY: input.api_key?.trim() || ctx.env.MODEL_API_KEY };
  const routed = providerForTask(
    env,
    { insights_provider: provider, insights_model: input.model ?? null },
    "insights",
    { timeoutMs: TEST_TIMEOUT_MS },
  );
  if (!routed.ok) return done("not_configured");
  try {
    await routed.provider.generateText({ system: "", user: "Reply with the word ok.", maxTokens: 5 });
    return done("reachable");
  } catch (err) {
    const e = asAiError(err);
    if (e.status === 401 || e.status === 403) return done("key_rejected");
    if (e.status === 404) return done("model_not_found");
    // The model bridge refuses a model that is not on its own allowlist with a 400.
    if (e.status === 400 && provider.startsWith("cli_"))
      return done("model_not_found", "not on the bridge's allowed list for this tool");
    if (e.kind === "http" && e.status !== null) return done("unreachable", `HTTP ${e.status}`);
    // An empty or refused answer still proves the provider is there.
    if (e.kind === "no_tool_call" || e.kind === "refusal") return done("reachable");
    return done("unreachable");
  }
}

const prefixOf = (p: string | null | undefined) =>
  (p?.trim() || DEFAULT_BACKUP_PREFIX).replace(/^\/+|\/+$/g, "");

/** Writes, reads back and deletes a small probe object under the prefix. */
export async function testObjectBackup(
  ctx: ServiceCtx,
  input: { bucket: string; prefix?: string | null | undefined },
) {
  const warnings: string[] = [];
  const prefix = prefixOf(input.prefix);
  if (!input.prefix?.trim()) warnings.push(`No prefix given: backups go under ${DEFAULT_BACKUP_PREFIX}/.`);
  warnings.push(
    `Backups are written to this deployment's bound bucket; the name "${input.bucket}" is recorded for your reference.`,
  );
  const key = `${prefix}/.probe-${crypto.randomUUID()}`;
  try {
    await ctx.env.FILES.put(key, "probe");
    const back = await ctx.env.FILES.get(key);
    if ((await back?.text()) !== "probe")
      return { ok: false, error: "The probe object did not read back.", warnings };
    await ctx.env.FILES.delete(key);
    return { ok: true, error: null, warnings };
  } catch {
    return { ok: false, error: "The bucket refused the probe write.", warnings };
  }
}

/** What the bucket shows: the daily zips under the prefix (the newest is the last success). */
export async function objectBackupStatus(ctx: ServiceCtx) {
  const cfg = await getConfig(ctx);
  const prefix = `${prefixOf(cfg.object_backup_prefix)}/`;
  const listed = await ctx.env.FILES.list({ prefix });
  const zips = listed.objects.filter((o) => o.key.endsWith(".zip"));
  const newest = zips.reduce<Date | null>((m, o) => (m && m > o.uploaded ? m : o.uploaded), null);
  return {
    enabled: cfg.object_backup_enabled,
    bucket: cfg.object_backup_bucket,
    prefix,
    last_attempt_at: newest?.toISOString() ?? null,
    last_success_at: newest?.toISOString() ?? null,
    last_error: null,
    consecutive_failures: 0,
    uploaded_count: zips.length,
    deleted_count: 0,
    objects_total: zips.length,
  };
}
