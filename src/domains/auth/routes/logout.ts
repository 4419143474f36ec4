import { route } from "../../../http/route";
import { sessionCookieValues } from "../rules";
import { logout } from "../service";
import { AuthRoute, authOk, clearSessionCookie } from "./base";

/** Ends the session server-side too: the same cookie replayed later is refused. */
export const WebappLogout = route(AuthRoute, {
  operationId: "webappLogout",
  summary: "Clear the caller's webapp session cookie",
  description: "Public: clearing a cookie needs no credentials. Other sessions stay signed in.",
  security: [],
  responses: authOk("The session cookie is cleared"),
  handle: async (ctx, _, c) => {
    await logout(ctx, sessionCookieValues(c.req.header("cookie")));
    clearSessionCookie(c);
    return { status: "logged_out" };
  },
});
