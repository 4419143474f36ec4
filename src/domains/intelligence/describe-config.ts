/** The configuration as GET /config shows it: live provider availability and the vendor link. */
import { bridgeAvailability } from "../../ai/routing";
import type { ServiceCtx } from "../../lib/context";
import { getConfig } from "../config/service";
import type { AppConfigResponse } from "../config/schemas";
import { vendorConnection } from "./vendor";

/**
 * What GET /config shows: the configuration plus the live availability of the local CLI providers
 * (the model bridge's own health, 2 s at most) and the vendor connection. Only this read pays for
 * those checks; everything else reads getConfig.
 */
export async function describeConfig({
  ctx,
}: {
  ctx: Pick<ServiceCtx, "env" | "clock">;
}): Promise<AppConfigResponse> {
  const config = await getConfig({ ctx });
  const [cli, vendor] = await Promise.all([
    bridgeAvailability(ctx.env),
    vendorConnection(ctx, config.user_id),
  ]);
  return {
    ...config,
    cli_a_available: cli.cli_a,
    cli_b_available: cli.cli_b,
    cli_c_available: cli.cli_c,
    vendor_oauth_connected: vendor.connected,
    vendor_oauth_email: vendor.email,
  };
}
