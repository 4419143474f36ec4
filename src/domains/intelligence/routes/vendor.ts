import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { disconnectVendor, startVendorLogin, vendorLoginStatus } from "../vendor";

const VendorRoute = domainRoute("auth");
const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

const StartVendorLoginResponse = z
  .object({
    verification_url: z.string().describe("Open on any device"),
    user_code: z.string().describe("Type it there"),
  })
  .meta({ id: "StartVendorLoginResponse" });

const VendorLoginStatusResponse = z
  .object({
    connected: z.boolean(),
    pending: z.boolean(),
    email: z.string().nullable(),
    error: z.string().nullable(),
    verification_url: z.string().nullable(),
    user_code: z.string().nullable(),
  })
  .meta({ id: "VendorLoginStatusResponse" });

const DisconnectVendorResponse = z.object({ ok: z.boolean() }).meta({ id: "DisconnectVendorResponse" });

export class StartVendorLogin extends VendorRoute {
  override schema = {
    operationId: "startVendorLogin",
    summary: "Start the vendor account sign-in (OAuth device flow): a URL to open and a code to type",
    responses: { "200": json("Started", StartVendorLoginResponse) },
  };
  override async handle(c: AppContext) {
    return c.json(await startVendorLogin(serviceCtx(c)));
  }
}

export class GetVendorLoginStatus extends VendorRoute {
  override schema = {
    operationId: "getVendorLoginStatus",
    summary: "The vendor sign-in: pending (with the code), connected (with the email) or an error in words",
    responses: { "200": json("Status", VendorLoginStatusResponse) },
  };
  override async handle(c: AppContext) {
    return c.json(await vendorLoginStatus(serviceCtx(c)));
  }
}

export class DisconnectVendor extends VendorRoute {
  override schema = {
    operationId: "disconnectVendor",
    summary: "Forget the vendor account's tokens",
    responses: { "200": json("Disconnected", DisconnectVendorResponse) },
  };
  override async handle(c: AppContext) {
    return c.json(await disconnectVendor(serviceCtx(c)));
  }
}
