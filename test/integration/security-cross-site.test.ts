import { beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  PASSWORD,
  resetState,
  seedToken,
  sessionCookie,
  setPassword,
  withCookie,
} from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";

const EVIL = "https://evil.example";

describe("JSON bodies must say they are JSON", () => {
  beforeEach(resetState);

  it("a text/plain body that would set the owner's password is 415, and no password is set", async () => {
    const res = await call("/api/v1/auth/set-password", {
      method: "POST",
      rawBody: JSON.stringify({ password: "attackerpw1" }),
      headers: { "content-type": "text/plain", origin: EVIL },
    });
    expect([403, 415]).toContain(res.status);
    // Still no password: an anonymous read on loopback is open (TOFU).
    expect((await call("/api/v1/whoami")).body.kind).toBe("tofu");
  });

  it("text/plain from the journal's own origin is 415 in the envelope", async () => {
    const res = await call("/api/v1/config", {
      method: "PUT",
      rawBody: JSON.stringify({ timezone: "UTC" }),
      headers: { "content-type": "text/plain;charset=UTF-8" },
    });
    expectEnvelope(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("url-encoded forms and multipart bodies sent to a JSON route are 415", async () => {
    const form = await call("/api/v1/categories", {
      method: "POST",
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectEnvelope(form, 415, "UNSUPPORTED_MEDIA_TYPE");
    const fd = new FormData();
    fd.set("name", "Sneaky");
    const multi = await call("/api/v1/categories", { method: "POST", rawBody: fd });
    expectEnvelope(multi, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("application/json with a charset, and vendor +json types, are accepted", async () => {
    const res = await call("/api/v1/categories", {
      method: "POST",
      rawBody: JSON.stringify({ name: "Board Games" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBeLessThan(300);
  });
});

describe("cross-site writes with browser credentials are refused", () => {
  beforeEach(resetState);

  it("TOFU: a foreign Origin cannot set the password even with a JSON body", async () => {
    const res = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: "attackerpw1" },
      headers: { origin: EVIL },
    });
    expectEnvelope(res, 403, "CROSS_SITE_REQUEST");
    expect((await call("/api/v1/whoami")).body.kind).toBe("tofu");
  });

  it("session cookie: a same-site sibling origin cannot mint a token; the journal's own origin can", async () => {
    const cookie = await setPassword();
    const sibling = await call("/api/v1/auth/tokens", {
      method: "POST",
      body: { label: "stolen", scope: "read+write" },
      headers: { ...withCookie(cookie), origin: "http://evil.localhost" },
    });
    expectEnvelope(sibling, 403, "CROSS_SITE_REQUEST");
    const viaFetchMeta = await call("/api/v1/auth/tokens", {
      method: "POST",
      body: { label: "stolen", scope: "read+write" },
      headers: { ...withCookie(cookie), "sec-fetch-site": "same-site" },
    });
    expectEnvelope(viaFetchMeta, 403, "CROSS_SITE_REQUEST");
    const own = await call("/api/v1/auth/tokens", {
      method: "POST",
      body: { label: "mine", scope: "read" },
      headers: { ...withCookie(cookie), origin: "http://localhost", "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(201);
  });

  it("an Origin listed in CORS_ALLOWED_ORIGINS may write with the cookie; Origin: null may not", async () => {
    const cookie = await setPassword();
    const env = { CORS_ALLOWED_ORIGINS: "https://dash.example.com" };
    const listed = await call("/api/v1/categories", {
      method: "POST",
      body: { name: "Listed" },
      headers: { ...withCookie(cookie), origin: "https://dash.example.com" },
      env,
    });
    expect(listed.status).toBeLessThan(300);
    const sandboxed = await call("/api/v1/categories", {
      method: "POST",
      body: { name: "Sandboxed" },
      headers: { ...withCookie(cookie), origin: "null" },
      env,
    });
    expectEnvelope(sandboxed, 403, "CROSS_SITE_REQUEST");
  });

  it("login from a foreign page is refused (no login CSRF), from the journal itself it works", async () => {
    await setPassword();
    const foreign = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: PASSWORD },
      headers: { origin: EVIL },
    });
    expectEnvelope(foreign, 403, "CROSS_SITE_REQUEST");
    const own = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: PASSWORD },
      headers: { origin: "http://localhost" },
    });
    expect(own.status).toBe(200);
    expect(sessionCookie(own)).toMatch(/^app_session=/);
  });

  it("bearer-token requests are not affected by Origin", async () => {
    await setPassword();
    const { token } = await seedToken("read+write");
    const res = await call("/api/v1/categories", {
      method: "POST",
      body: { name: "From A Script" },
      headers: { ...bearer(token), origin: EVIL, "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBeLessThan(300);
  });

  it("a multipart upload from a foreign origin is refused the same way", async () => {
    const fd = new FormData();
    fd.set("file", new File(["From: a@b.c\r\n\r\nhello"], "x.eml", { type: "message/rfc822" }));
    const res = await call("/api/v1/transactions/upload-eml", {
      method: "POST",
      rawBody: fd,
      headers: { origin: EVIL },
    });
    expectEnvelope(res, 403, "CROSS_SITE_REQUEST");
  });

  it("reads are never refused for their origin", async () => {
    const res = await call("/api/v1/categories", { headers: { origin: EVIL } });
    expect(res.status).toBe(200);
  });
});

describe("'local' comes from the connection, not the Host header", () => {
  beforeEach(resetState);

  it("Host localhost with a non-loopback connecting address is not local: no TOFU", async () => {
    const res = await call("/api/v1/whoami", { headers: { "cf-connecting-ip": "192.0.2.7" } });
    const b = expectEnvelope(res, 401, "UNAUTHORIZED");
    expect(b.details?.setup_required).toBe(true);
  });

  it("a server bound beyond loopback (PUBLIC_BIND) trusts no Host or spoofed address", async () => {
    const res = await call("/api/v1/whoami", {
      headers: { "cf-connecting-ip": "127.0.0.1" },
      env: { PUBLIC_BIND: "true" },
    });
    expectEnvelope(res, 401, "UNAUTHORIZED");
  });

  it("the dev bypass needs a local request too", async () => {
    await call("/api/v1/config", { method: "PUT", body: { auth_bypass_for_dev: true } });
    await setPassword();
    const local = await call("/api/v1/whoami", { headers: { "cf-connecting-ip": "127.0.0.1" } });
    expect(local.body.kind).toBe("dev-bypass");
    const lan = await call("/api/v1/whoami", { headers: { "cf-connecting-ip": "10.0.0.9" } });
    expectEnvelope(lan, 401, "UNAUTHORIZED");
  });
});
