import { describe, expect, it } from "vitest";
import {
  hmacSign,
  hmacVerify,
  newRawToken,
  newTokenId,
  pbkdf2Hex,
  sha256Hex,
} from "../../../../src/domains/auth/crypto";
import {
  constantTimeEqual,
  fromHex,
  isWellFormedToken,
  parseBearer,
  parseSessionCookie,
  retryAfterSeconds,
  sessionIsLive,
  sessionPayload,
  shouldStampLastUsed,
  toBase64Url,
  toHex,
} from "../../../../src/domains/auth/rules";
import { isPublicPath, SCOPE_ALLOWLISTS, scopeAllows } from "../../../../src/http/auth";
import { allowOrigin, corsPolicy } from "../../../../src/http/cors";

describe("bearer parsing", () => {
  it.each([
    ["Bearer fin_abc", "fin_abc"],
    ["bearer fin_abc", "fin_abc"],
    ["BEARER   fin_abc  ", "fin_abc"],
    ["Bearer", null],
    ["Bearer ", null],
    ["Basic fin_abc", null],
    ["fin_abc", null],
    ["Bearer a b", null],
    ["", null],
  ])("%j -> %j", (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });

  it("mints URL-safe tokens of 32 random bytes", () => {
    const a = newRawToken();
    expect(a).toMatch(/^fin_[A-Za-z0-9_-]{43}$/);
    expect(isWellFormedToken(a)).toBe(true);
    expect(newRawToken()).not.toBe(a);
    expect(isWellFormedToken("fin_short")).toBe(false);
    expect(isWellFormedToken(`xyz_${a.slice(4)}`)).toBe(false);
    expect(newTokenId()).toMatch(/^tok_[0-9a-f]{16}$/);
  });

  it("hashes tokens with SHA-256 hex", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("scope allowlists", () => {
  it.each([
    ["read", "GET", "/api/v1/config", true],
    ["read", "HEAD", "/api/v1/config", true],
    ["read", "GET", "/openapi.json", true],
    ["read", "PUT", "/api/v1/config", false],
    ["read", "POST", "/api/v1/transactions/search-by-filter", false],
    ["read", "DELETE", "/api/v1/auth/tokens/x", false],
    ["read", "GET", "/somewhere-else", false],
    ["read+write", "DELETE", "/api/v1/auth/tokens/x", true],
    ["read+write", "PATCH", "/api/v1/transactions/bulk", true],
    ["read+write", "GET", "/api/v1/config", true],
  ] as const)("%s %s %s -> %s", (scope, method, path, allowed) => {
    expect(scopeAllows(scope, method, path)).toBe(allowed);
  });

  it("has a list for every scope", () => {
    expect(Object.keys(SCOPE_ALLOWLISTS).sort()).toEqual(["read", "read+write"]);
  });

  it("knows the public paths", () => {
    for (const p of [
      "/api/v1/health",
      "/api/v1/health/",
      "/openapi.json",
      "/docs",
      "/redoc",
      "/llms.txt",
      "/api/v1/auth/login",
    ]) {
      expect(isPublicPath(p), p).toBe(true);
    }
    for (const p of ["/api/v1/config", "/api/v1/auth/set-password", "/api/v1/whoami", "/api/v1/healthz"]) {
      expect(isPublicPath(p), p).toBe(false);
    }
  });
});

describe("throttles and lockout", () => {
  const now = new Date("2030-01-01T00:15:00.000Z");
  it("stamps last_used_at at most once per 15 minutes", () => {
    expect(shouldStampLastUsed(null, now)).toBe(true);
    expect(shouldStampLastUsed("2030-01-01T00:00:00.001Z", now)).toBe(false);
    expect(shouldStampLastUsed("2030-01-01T00:00:00.000Z", now)).toBe(true);
    expect(shouldStampLastUsed("garbage", now)).toBe(true);
  });

  it("computes Retry-After from locked_until", () => {
    expect(retryAfterSeconds(null, now)).toBe(0);
    expect(retryAfterSeconds("2030-01-01T00:14:00.000Z", now)).toBe(0);
    expect(retryAfterSeconds("2030-01-01T00:15:29.100Z", now)).toBe(30);
  });
});

describe("session cookies", () => {
  const claims = { epoch: 3, exp: 1_900_000_000, nonce: "AbCdEfGh12345678" };

  it("round-trips the signed payload and rejects malformed values", async () => {
    const payload = sessionPayload(claims);
    const sig = await hmacSign("secret", payload);
    const parsed = parseSessionCookie(`${payload}.${sig}`);
    expect(parsed).toEqual({ claims, payload, signature: sig });
    expect(await hmacVerify("secret", parsed!.payload, parsed!.signature)).toBe(true);
    expect(await hmacVerify("other", parsed!.payload, parsed!.signature)).toBe(false);
    const tampered = parseSessionCookie(`${sessionPayload({ ...claims, epoch: 4 })}.${sig}`)!;
    expect(await hmacVerify("secret", tampered.payload, tampered.signature)).toBe(false);
    for (const bad of ["", "v1.3", `${payload}.short`, `v2.3.1.nonce123.${sig}`, `${payload}.${sig}.x`]) {
      expect(parseSessionCookie(bad), bad).toBeNull();
    }
  });

  it("is live only unexpired and under the current epoch", () => {
    const before = new Date((claims.exp - 1) * 1000);
    expect(sessionIsLive(claims, 3, before)).toBe(true);
    expect(sessionIsLive(claims, 4, before)).toBe(false);
    expect(sessionIsLive(claims, 3, new Date(claims.exp * 1000))).toBe(false);
  });
});

describe("crypto helpers", () => {
  it("compares in constant time, including different lengths", () => {
    const a = new Uint8Array([1, 2, 3]);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(), new Uint8Array())).toBe(true);
  });

  it("encodes hex and base64url both ways", () => {
    const bytes = new Uint8Array([0, 255, 62, 63, 128]);
    expect(fromHex(toHex(bytes))).toEqual(bytes);
    expect(toBase64Url(bytes)).toBe("AP8-P4A");
    expect(toBase64Url(new Uint8Array([251, 255]))).toBe("-_8");
  });

  it("derives PBKDF2-SHA256 with a per-password salt", async () => {
    const a = await pbkdf2Hex("password1", "00112233445566778899aabbccddeeff", 1000);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await pbkdf2Hex("password1", "00112233445566778899aabbccddeeff", 1000)).toBe(a);
    expect(await pbkdf2Hex("password1", "ffeeddccbbaa99887766554433221100", 1000)).not.toBe(a);
    expect(await pbkdf2Hex("password2", "00112233445566778899aabbccddeeff", 1000)).not.toBe(a);
  });
});

describe("CORS policy", () => {
  it("trusts no origin by default (issue 26 finding 10: not any local app on :5173)", () => {
    for (const raw of [undefined, "", " , "]) {
      const p = corsPolicy(raw);
      expect(p.any).toBe(false);
      expect([...p.origins]).toEqual([]);
      expect(allowOrigin(p, "http://localhost:5173")).toBeNull();
    }
  });

  it("allows listed origins with credentials and * without", () => {
    const list = corsPolicy("https://A.example/, https://b.example");
    expect(allowOrigin(list, "https://a.example")).toEqual({ value: "https://a.example", credentials: true });
    expect(allowOrigin(list, "https://c.example")).toBeNull();
    const any = corsPolicy("*");
    expect(allowOrigin(any, "https://c.example")).toEqual({ value: "*", credentials: false });
    const mixed = corsPolicy("*, https://a.example");
    expect(allowOrigin(mixed, "https://a.example")?.credentials).toBe(true);
    expect(allowOrigin(mixed, "https://z.example")?.credentials).toBe(false);
  });
});
