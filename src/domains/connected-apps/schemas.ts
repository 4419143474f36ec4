import { z } from "zod";

export const ConnectedApp = z
  .object({
    id: z.string().describe("The grant id (the ledger's principal_id for this app's writes)"),
    client_id: z.string(),
    name: z.string().describe("The name the app registered with (not verified)"),
    scope: z.enum(["read", "read+write"]).describe("read: read your journal; read+write: read and change it"),
    connected_at: z.string().describe("When the owner allowed it (ISO 8601)"),
    last_used_at: z.string().nullable().describe("Its last MCP call (to the minute), or null"),
  })
  .meta({ id: "ConnectedApp" });

export const ConnectedAppList = z.object({ apps: z.array(ConnectedApp) }).meta({ id: "ConnectedAppList" });

export const DisconnectAppResponse = z
  .object({ id: z.string(), status: z.literal("disconnected") })
  .meta({ id: "DisconnectAppResponse" });
