/** The configuration as GET /config shows it: live provider availability. */
import { bridgeAvailability } from "../../ai/routing";
import type { ServiceCtx } from "../../lib/context";
import { getConfig } from "./service";
import type { AppConfigResponse } from "./schemas";

/**
 * What GET /config shows: the configuration plus the live availability of the local CLI providers
 * (the model bridge's own health, 2 s at most). Only this read pays for
 * those checks; everything else reads getConfig.
 */
export async function describeConfig(ctx: Pick<ServiceCtx, "env" | "clock">): Promise<AppConfigResponse> {
  const config = await getConfig(ctx);
  const cli = await bridgeAvailability(ctx.env);
  return {
    ...config,
    cli_a_available: cli.cli_a,
    cli_b_available: cli.cli_b,
    cli_c_available: cli.cli_c,
    // SPEC keeps the vendor sign-in fields; no provider here can use its token (README's AI section).
    vendor_oauth_connected: false,
    vendor_oauth_email: null,
  };
}
