import { contentJson } from "chanfana";
import { route } from "../../../http/route";
import { SignOutAllIn } from "../schemas";
import { signOutAll } from "../service";
import { AuthRoute, authOk, clearSessionCookie, withRetryAfter, clientInfo } from "./base";

export const WebappSignOutAll = route(AuthRoute, {
  operationId: "webappSignOutAll",
  summary: "Bump the session epoch, invalidating all existing cookies",
  request: { body: { ...contentJson(SignOutAllIn.nullable()), required: false } },
  responses: authOk("Every session is signed out"),
  handle: async (ctx, { body }, c) => {
    await withRetryAfter(c, () => signOutAll(ctx, { input: body ?? null, client: clientInfo(c) }));
    clearSessionCookie(c);
    return { status: "signed_out_all" };
  },
});
