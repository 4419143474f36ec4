import {
  EndWebappSession,
  IssueApiToken,
  ListWebappSessions,
  ListApiTokens,
  WebappLogin,
  WebappLogout,
  RevokeApiToken,
  SetAppPassword,
  WebappSignOutAll,
} from "./routes";
import { domainRouter } from "../../http/route";

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
