// The vendor device flow (RFC 8628) client against a local fake authorization server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountEmail,
  type DeviceFlowConfig,
  deviceFlowConfig,
  pollDeviceToken,
  startDeviceAuthorization,
} from "../../../src/ai/device-flow";
import { type FakeOAuth, startFakeOAuth } from "../../fixtures/bridge/fake-oauth.mjs";

let fake: FakeOAuth;
let cfg: DeviceFlowConfig;

describe("vendor device authorization grant", () => {
  beforeAll(async () => {
    fake = await startFakeOAuth();
    cfg = deviceFlowConfig({
      VENDOR_DEVICE_AUTH_URL: `${fake.base}/device`,
      VENDOR_TOKEN_URL: `${fake.base}/token`,
      VENDOR_CLIENT_ID: "finance-journal",
      VENDOR_SCOPE: "openid email",
      VENDOR_USERINFO_URL: `${fake.base}/userinfo`,
    })!;
  });
  afterAll(() => fake.close());

  it("is off until the three endpoints settings exist", () => {
    expect(deviceFlowConfig({ VENDOR_TOKEN_URL: "x", VENDOR_CLIENT_ID: "y" })).toBeNull();
  });

  it("start: the user code and verification URL; the request carries client id and scope", async () => {
    const auth = await startDeviceAuthorization(cfg);
    expect(auth).toEqual({
      deviceCode: "dev-123",
      userCode: "ABCD-EFGH",
      verificationUrl: "https://example.test/activate",
      expiresIn: 600,
      interval: 1,
    });
    expect(fake.state.requests.at(-1)).toMatchObject({
      path: "/device",
      body: { client_id: "finance-journal", scope: "openid email" },
    });
  });

  it("poll: pending, slow down, then granted; the grant type is the device code's", async () => {
    fake.state.queue = ["pending", "slow_down", "grant"];
    expect(await pollDeviceToken(cfg, "dev-123")).toEqual({ kind: "pending" });
    expect(await pollDeviceToken(cfg, "dev-123")).toEqual({ kind: "slow_down" });
    const granted = await pollDeviceToken(cfg, "dev-123");
    expect(granted).toMatchObject({
      kind: "granted",
      accessToken: "at-secret",
      refreshToken: "rt-secret",
      expiresIn: 3600,
    });
    expect(fake.state.requests.at(-1)).toMatchObject({
      path: "/token",
      body: {
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: "dev-123",
        client_id: "finance-journal",
      },
    });
    if (granted.kind !== "granted") throw new Error("expected a grant");
    expect(await accountEmail(cfg, granted.accessToken, granted.idToken)).toBe("person@example.com");
    expect(fake.state.requests.at(-1)).toMatchObject({ path: "/userinfo", auth: "Bearer at-secret" });
    // Without a userinfo endpoint the id token's email claim is used.
    expect(await accountEmail({ ...cfg, userinfoUrl: null }, granted.accessToken, granted.idToken)).toBe(
      "id-token@example.com",
    );
  });

  it("declined and expired codes end the flow; an unknown answer is a failure, not a crash", async () => {
    fake.state.queue = ["denied", "expired"];
    expect(await pollDeviceToken(cfg, "dev-123")).toEqual({ kind: "denied" });
    expect(await pollDeviceToken(cfg, "dev-123")).toEqual({ kind: "expired" });
    expect(await pollDeviceToken({ ...cfg, tokenUrl: `${fake.base}/nowhere` }, "d")).toEqual({
      kind: "failed",
      reason: "HTTP 404 not_found",
    });
    await expect(startDeviceAuthorization({ ...cfg, deviceAuthUrl: `${fake.base}/nowhere` })).rejects.toThrow(
      /refused to start \(HTTP 404/,
    );
  });
});
