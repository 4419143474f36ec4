import { domainRouter } from "../../http/route";
import { EndWebappSession } from "./routes/end-session";
import { IssueApiToken } from "./routes/issue-token";
import { ListWebappSessions } from "./routes/list-sessions";
import { ListApiTokens } from "./routes/list-tokens";
import { WebappLogin } from "./routes/login";
import { WebappLogout } from "./routes/logout";
import { RevokeApiToken } from "./routes/revoke-token";
import { SetAppPassword } from "./routes/set-password";
import { WebappSignOutAll } from "./routes/sign-out-all";

/** Mounted at /api/v1/auth: password, sessions and API tokens. */
export function authRouter() {
  const router = domainRouter();
  router.post("/set-password", SetAppPassword);
  router.post("/login", WebappLogin);
  router.post("/logout", WebappLogout);
  router.post("/sign-out-all", WebappSignOutAll);
  router.get("/sessions", ListWebappSessions);
  router.delete("/sessions/:session_id", EndWebappSession);
  router.get("/tokens", ListApiTokens);
  router.post("/tokens", IssueApiToken);
  router.delete("/tokens/:token_id", RevokeApiToken);
  return router;
}
