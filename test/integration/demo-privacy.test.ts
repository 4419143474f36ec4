// Issue 26 finding 10: the public demo (SPEC.md rule 9, read-only, no credentials) shows neither
// where sessions signed in from (IP, user agent) nor what the owner named their tokens.
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, PASSWORD, resetState, seedToken, setPassword } from "../helpers/auth";
import { call } from "../helpers/http";

const demo = { DEMO_MODE: "true" };
const IP = "198.51.100.23";
const UA = "Mozilla/5.0 (Owner's Laptop) Firefox/140";
const LABEL = "owner-phone-shortcut";

let token = "";

beforeEach(async () => {
  await resetState();
  // A session signed in from a known place, and a token whose label is personal, that wrote once.
  await setPassword();
  const signIn = await call("/api/v1/auth/login", {
    method: "POST",
    body: { password: PASSWORD },
    headers: { "cf-connecting-ip": IP, "user-agent": UA },
  });
  expect(signIn.status).toBe(200);
  token = (await seedToken("read+write", LABEL)).token;
  const write = await call("/api/v1/config", {
    method: "PUT",
    body: { insights_user_memo: "demo privacy" },
    headers: bearer(token),
  });
  expect(write.status).toBe(200);
});

describe("the public demo hides who and where (issue 26 finding 10)", () => {
  it("outside the demo the owner sees them (the data the demo must hide exists)", async () => {
    const h = bearer(token);
    const sessions = await call("/api/v1/auth/sessions", { headers: h });
    expect(sessions.body.sessions.map((s: { ip: string }) => s.ip)).toContain(IP);
    const tokens = await call("/api/v1/auth/tokens", { headers: h });
    expect(tokens.body.tokens.map((t: { label: string }) => t.label)).toContain(LABEL);
    const activity = await call("/api/v1/activity", { headers: h });
    expect(activity.body.entries.map((e: { principal_label: string }) => e.principal_label)).toContain(LABEL);
  });

  it("in the demo: sessions without IP or user agent, tokens and the ledger without labels", async () => {
    const sessions = await call("/api/v1/auth/sessions", { env: demo });
    expect(sessions.status).toBe(200);
    expect(sessions.body.sessions.length).toBeGreaterThan(0);
    for (const s of sessions.body.sessions) {
      expect(s.ip).toBeNull();
      expect(s.user_agent).toBeNull();
    }
    const tokens = await call("/api/v1/auth/tokens", { env: demo });
    expect(tokens.status).toBe(200);
    expect(tokens.body.tokens.length).toBeGreaterThan(0);
    const activity = await call("/api/v1/activity", { env: demo });
    expect(activity.status).toBe(200);
    expect(activity.body.entries.length).toBeGreaterThan(0);
    const everything = JSON.stringify([sessions.body, tokens.body, activity.body]);
    for (const secret of [IP, UA, LABEL]) expect(everything).not.toContain(secret);
  });
});
