import { type AppContext, serviceCtx } from "../../../http/context";
import { sessionCookieValues } from "../rules";
import { logout } from "../service";
import { AuthRoute, authOk, clearSessionCookie } from "./base";

export class WebappLogout extends AuthRoute {
  override schema = {
    operationId: "webappLogout",
    summary: "Clear the caller's webapp session cookie",
    description: "Public: clearing a cookie needs no credentials. Other sessions stay signed in.",
    security: [],
    responses: authOk("The session cookie is cleared"),
  };

  /** Ends the session server-side too: the same cookie replayed later is refused. */
  override async handle(c: AppContext) {
    await logout(serviceCtx(c), sessionCookieValues(c.req.header("cookie")));
    clearSessionCookie(c);
    return c.json({ status: "logged_out" });
  }
}
