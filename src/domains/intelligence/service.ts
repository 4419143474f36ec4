/**
 * Configuration checks: test a model connection for a task's provider (answers in words: key
 * rejected, model not found, reachable), test writing the object backup, and the backup's status
 * read from the bucket itself. Keys sent for a test are used once and never stored or echoed.
 */
import { APIError } from "openai";
import OpenAI from "openai";
import { type AiEnv, isCli } from "../../ai/routing";
import type { ServiceCtx } from "../../lib/context";
import { getConfig } from "../config/service";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
const TEST_TIMEOUT_MS = 10_000;
export const DEFAULT_BACKUP_PREFIX = "backups/daily";

export type Verdict = "reachable" | "key_rejected" | "model_not_found" | "unreachable" | "not_configured";

const WORDS: Record<Verdict, string> = {
  reachable: "Reachable: the provider answered.",
  key_rejected: "Key rejected: the provider refused this API key.",
  model_not_found: "Model not found: the provider does not know this model.",
  unreachable: "Unreachable: no answer from the provider's address.",
  not_configured: "Not configured: there is no key or bridge address to test.",
};

export interface TestModelInput {
  provider?: string | null | undefined;
  api_key?: string | null | undefined;
  model?: string | null | undefined;
}

export async function testModel(ctx: Ctx, input: TestModelInput) {
  const env = ctx.env as AiEnv;
  const provider = input.provider ?? "hosted";
  const cli = isCli(provider);
  const apiKey = cli
    ? env.MODEL_BRIDGE_TOKEN?.trim() || "bridge"
    : input.api_key?.trim() || env.MODEL_API_KEY?.trim();
  const base = cli ? env.MODEL_BRIDGE_URL?.trim() : env.MODEL_BASE_URL?.trim() || undefined;
  const done = (verdict: Verdict, detail?: string) => ({
    ok: verdict === "reachable",
    verdict,
    error: verdict === "reachable" ? null : detail ? `${WORDS[verdict]} (${detail})` : WORDS[verdict],
    message: WORDS[verdict],
  });
  if (!apiKey || (cli && !base)) return done("not_configured");
  const model = input.model?.trim() || (cli ? provider : env.MODEL_NAME?.trim() || "gpt-4o-mini");
  const client = new OpenAI({
    apiKey,
    baseURL: cli ? `${base!.replace(/\/+$/, "")}/v1` : base,
    timeout: TEST_TIMEOUT_MS,
    maxRetries: 0,
  });
  try {
    await client.chat.completions.create({
      model: cli && input.model ? `${provider}:${input.model}` : model,
      messages: [{ role: "user", content: "Reply with the word ok." }],
      max_tokens: 5,
    });
    return done("reachable");
  } catch (err) {
    if (err instanceof APIError && (err.status === 401 || err.status === 403)) return done("key_rejected");
    if (err instanceof APIError && err.status === 404) return done("model_not_found");
    if (err instanceof APIError && typeof err.status === "number")
      return done("unreachable", `HTTP ${err.status}`);
    return done("unreachable");
  }
}

const prefixOf = (p: string | null | undefined) =>
  (p?.trim() || DEFAULT_BACKUP_PREFIX).replace(/^\/+|\/+$/g, "");

/** Writes, reads back and deletes a small probe object under the prefix. */
export async function testObjectBackup(
  ctx: Ctx,
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
export async function objectBackupStatus(ctx: Ctx) {
  const cfg = await getConfig({ ctx });
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
