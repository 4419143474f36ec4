/** Connected-app verbs over the OAuth provider's grants (KV): the disconnect journals itself. */
import type { ServiceCtx } from "../../lib/context";
import { NotFound } from "../../lib/errors";
import { disconnectApp } from "./apps";

/**
 * Revokes an app's grant and every token of it (404 when there is no such app). The change is in
 * KV, not D1: the entry has no batch to ride in and is written by the door before it answers.
 */
export async function disconnectConnectedApp(
  ctx: Pick<ServiceCtx, "env" | "journal">,
  { origin, id }: { origin: string; id: string },
) {
  const app = await disconnectApp(ctx.env, origin, id);
  if (!app) throw new NotFound("No connected app with this id");
  ctx.journal({ resourceId: app.id, summary: `disconnected app "${app.name}" (${app.scope})` });
  return app;
}
