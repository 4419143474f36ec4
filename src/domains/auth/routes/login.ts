import { contentJson } from "chanfana";
import { route } from "../../../http/route";
import { LoginIn } from "../schemas";
import { login } from "../service";
import {
  AuthRoute,
  authOk,
  clientInfo,
  deviceCookies,
  setDeviceCookie,
  setSessionCookie,
  withRetryAfter,
} from "./base";

export const WebappLogin = route(AuthRoute, {
  operationId: "webappLogin",
  summary: "Issue a webapp session cookie",
  description:
    "Public. Sets the signed `app_session` cookie (HttpOnly, SameSite=Lax, Secure on https, 30 days). " +
    "Wrong password: 401; repeated wrong passwords lock login for a growing window (429 RATE_LIMITED " +
    "with Retry-After); no password set yet: 409. Also sets `app_device` (HttpOnly, SameSite=Strict, path " +
    "/api/v1/auth): a later login from this browser is throttled on its own, so strangers' guesses never " +
    "lock it out.",
  security: [],
  request: { body: { ...contentJson(LoginIn), required: true } },
  responses: authOk("Logged in; the session cookie is set"),
  handle: async (ctx, { body }, c) => {
    const { session, device } = await withRetryAfter(c, () =>
      login(ctx, { input: body, client: clientInfo(c), devices: deviceCookies(c) }),
    );
    setSessionCookie(c, session);
    setDeviceCookie(c, device);
    return { status: "logged_in" };
  },
});
