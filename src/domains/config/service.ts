import { getDb } from "../../db";
import { flag, type Env } from "../../env";
import { ApiError } from "../../lib/errors";
import type { ServiceCtx } from "../../lib/context";
import { readWithFallback, saveBackup } from "../../lib/backup";
import { readStoredConfig, writeStoredConfig } from "./queries";
import { applyUpdate, type Deployment, deploymentConflicts, parseStored, toResponse } from "./rules";
import type { AppConfigResponse, AppConfigUpdateRequest, StoredConfig } from "./schemas";

const BACKUP_NAME = "app_config";

export function deployment(env: Env): Deployment {
  return {
    demoMode: flag(env.DEMO_MODE),
    hostedEnabled: Boolean(env.MODEL_API_KEY?.trim()),
    cloudAvailable: Boolean(env.FILES),
    defaultTimezone: env.DEFAULT_TIMEZONE || "America/Los_Angeles",
    defaultUserId: env.DEFAULT_USER_ID || "default",
  };
}

/** The stored settings (D1, or the R2 backup when D1 fails), defaults filled in. */
export async function loadSettings(env: Env): Promise<StoredConfig> {
  const { value } = await readWithFallback(env.FILES, BACKUP_NAME, () => readStoredConfig(getDb(env.DB)));
  return parseStored(value);
}

/** The effective configuration every other domain reads. */
export async function getConfig({ ctx }: { ctx: Pick<ServiceCtx, "env"> }): Promise<AppConfigResponse> {
  return toResponse(await loadSettings(ctx.env), deployment(ctx.env));
}

/**
 * Applies a partial update, writes D1 and the R2 backup, and returns the before/after
 * images of the stored settings (the activity ledger stages them).
 */
export async function updateConfig({ ctx, input }: { ctx: ServiceCtx; input: AppConfigUpdateRequest }) {
  const dep = deployment(ctx.env);
  const conflicts = deploymentConflicts(input, dep);
  if (conflicts.length > 0) {
    throw new ApiError(
      422,
      "These fields are set by the deployment and cannot be changed here",
      "VALIDATION_ERROR",
      {
        errors: conflicts.map((f) => ({
          loc: ["body", f],
          msg:
            f === "demo_mode"
              ? "set by the DEMO_MODE variable of this deployment"
              : "storage is D1 on this deployment",
          type: "read_only",
        })),
      },
    );
  }
  const before = await loadSettings(ctx.env);
  const after = applyUpdate(before, input);
  await writeStoredConfig(getDb(ctx.env.DB), after, ctx.clock().toISOString());
  await saveBackup(ctx.env.FILES, BACKUP_NAME, after);
  return { before, after, response: toResponse(after, dep) };
}

/** Restores a stored image (used by activity revert). */
export async function restoreConfig(ctx: ServiceCtx, image: StoredConfig): Promise<void> {
  const data = parseStored(image);
  await writeStoredConfig(getDb(ctx.env.DB), data, ctx.clock().toISOString());
  await saveBackup(ctx.env.FILES, BACKUP_NAME, data);
}
