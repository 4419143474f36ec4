import { api, unwrap } from "../api/client";

/**
 * The OAuth consent page (/oauth/authorize) sends a signed-out owner here with `?next=` pointing
 * back at it: once signed in with the password (a session, which the consent page requires), go
 * back. Only that one path is followed, so `next` cannot send the browser anywhere else.
 */
export async function returnToConsent(): Promise<void> {
  const next = new URLSearchParams(window.location.search).get("next");
  if (!next?.startsWith("/oauth/authorize?")) return;
  try {
    const who = await unwrap(api.GET("/api/v1/whoami"));
    if (who.kind === "session") window.location.replace(next);
  } catch {
    /* stay on the dashboard */
  }
}
