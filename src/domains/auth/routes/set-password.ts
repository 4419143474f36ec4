import { contentJson } from "chanfana";
import { route } from "../../../http/route";
import { SetPasswordIn } from "../schemas";
import { deviceAfterSetPassword, setPassword } from "../service";
import {
  AuthRoute,
  authOk,
  clientInfo,
  deviceCookies,
  setDeviceCookie,
  setSessionCookie,
  withRetryAfter,
} from "./base";

export const SetAppPassword = route(AuthRoute, {
  operationId: "setAppPassword",
  summary: "Set or change the webapp password (TOFU on first set)",
  description:
    "The first password ends trust on first use: anonymous callers get 401 from then on. Changing it " +
    "needs `current_password` (wrong: 403; repeated: 429). Every other session is signed out and the " +
    "caller gets a fresh session cookie. Minimum length 8.",
  request: { body: { ...contentJson(SetPasswordIn), required: true } },
  responses: authOk("Password stored; the caller's session cookie is set"),
  handle: async (ctx, { body }, c) => {
    const { session, settings } = await withRetryAfter(c, () =>
      setPassword(ctx, { input: body, client: clientInfo(c) }),
    );
    setSessionCookie(c, session);
    setDeviceCookie(c, await deviceAfterSetPassword(ctx, { devices: deviceCookies(c), settings }));
    return { status: "password_set" };
  },
});
