import type { AppContext } from "../../../http/context";
import { AuthRoute, authOk, clearSessionCookie } from "./base";

export class WebappLogout extends AuthRoute {
  override schema = {
    operationId: "webappLogout",
    summary: "Clear the caller's webapp session cookie",
    description: "Public: clearing a cookie needs no credentials. Other sessions stay signed in.",
    security: [],
    responses: authOk("The session cookie is cleared"),
  };

  override async handle(c: AppContext) {
    clearSessionCookie(c);
    return c.json({ status: "logged_out" });
  }
}
