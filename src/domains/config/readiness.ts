/** GET /config/ai-readiness: per AI action, whether it can run and, if not, why (in words). */
import { isCli, routeOf, AI_TASKS, bridgeAvailability } from "../../ai/routing";
import { readiness, taskReadiness } from "../../ai/readiness";
import type { ServiceCtx } from "../../lib/context";
import { getConfig } from "./service";

export async function aiReadiness(ctx: Pick<ServiceCtx, "env" | "clock">) {
  const config = await getConfig(ctx);
  // The bridge's health (2 s at most) only when some task is routed to a local tool.
  const usesBridge = AI_TASKS.some((t) => isCli(routeOf(config, t).provider));
  const bridge = usesBridge ? await bridgeAvailability(ctx.env) : {};
  return { actions: readiness(ctx.env, config, bridge), tasks: taskReadiness(ctx.env, config, bridge) };
}
