// Issue 26 finding 5 (clickjacking): every response of the Worker carries frame-ancestors 'none',
// X-Frame-Options DENY, Referrer-Policy no-referrer and nosniff; the dashboard's assets get the same
// (and a real script/style policy) from dashboard/public/_headers, which Workers static assets apply.
import { beforeAll, describe, expect, it } from "vitest";
import placeholderHeaders from "../../dashboard/placeholder/_headers?raw";
import dashboardHeaders from "../../dashboard/public/_headers?raw";
import { DATA_CSP, PAGE_FALLBACK_CSP, withFrameAncestors } from "../../src/http/headers";
import { resetState, setPassword } from "../helpers/auth";
import { type CallResult, call } from "../helpers/http";

/** The directives of a CSP value, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

function expectUnframeable(res: CallResult) {
  const csp = directives(res.headers.get("content-security-policy"));
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

/** The headers a `_headers` file gives every path (`/*`). */
function headersFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let inAll = false;
  for (const line of text.split("\n")) {
    if (/^\S/.test(line)) inAll = line.trim() === "/*";
    else if (inAll && line.includes(":")) {
      const i = line.indexOf(":");
      out.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
    }
  }
  return out;
}

beforeAll(resetState);

describe("security headers on the Worker's responses (issue 26 finding 5)", () => {
  it("API JSON (200, 401, 404, 405 demo, preflight) cannot be framed or sniffed", async () => {
    const health = await call("/api/v1/health");
    expect(health.status).toBe(200);
    expectUnframeable(health);
    // Data, not a page: the policy allows loading nothing at all.
    expect(directives(health.headers.get("content-security-policy")).get("default-src")).toEqual(["'none'"]);

    const missing = await call("/api/v1/no-such-route");
    expect(missing.status).toBe(404);
    expectUnframeable(missing);

    const demoWrite = await call("/api/v1/config", {
      method: "PUT",
      body: {},
      env: { DEMO_MODE: "true" },
    });
    expect(demoWrite.status).toBe(405);
    expectUnframeable(demoWrite);

    const preflight = await call("/api/v1/config", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.status).toBe(204);
    expectUnframeable(preflight);
  });

  it("a 401 after a password is set, /openapi.json and /llms.txt carry them too", async () => {
    await setPassword();
    const denied = await call("/api/v1/config");
    expect(denied.status).toBe(401);
    expectUnframeable(denied);
    for (const path of ["/openapi.json", "/llms.txt"]) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      expectUnframeable(res);
    }
    await resetState();
  });

  it("/docs and /redoc keep their own policy as a header, with frame-ancestors 'none' added", async () => {
    for (const path of ["/docs", "/redoc"]) {
      const res = await call(path);
      expect(res.status).toBe(200);
      expectUnframeable(res);
      const csp = directives(res.headers.get("content-security-policy"));
      // Their viewers still load from this origin (a data-only policy would blank the page).
      expect(csp.get("script-src")).toContain("'self'");
      expect(csp.get("default-src")).toEqual(["'self'"]);
    }
  });
});

describe("the policy a response gets", () => {
  it("its own, with frame-ancestors added; data: nothing at all; a PDF: frame-ancestors only", () => {
    expect(withFrameAncestors("sandbox; default-src 'none'")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    expect(withFrameAncestors("default-src 'self'; frame-ancestors 'self'")).toBe(
      "default-src 'self'; frame-ancestors 'self'",
    );
    expect(withFrameAncestors(null, "application/json")).toBe(DATA_CSP);
    // The browser's PDF viewer must still run inside the tab; framing is refused all the same.
    expect(withFrameAncestors(null, "application/pdf")).toBe("frame-ancestors 'none'");
    // A Worker page without its own policy keeps working, unframeable.
    expect(withFrameAncestors(null, "text/html; charset=UTF-8")).toBe(PAGE_FALLBACK_CSP);
    expect(PAGE_FALLBACK_CSP).toContain("frame-ancestors 'none'");
  });
});

describe("the dashboard's static headers (dashboard/public/_headers, copied into dist by the build)", () => {
  for (const [name, text] of [
    ["dashboard", dashboardHeaders],
    ["placeholder", placeholderHeaders],
  ] as const) {
    it(`${name}: every path gets the same four headers and a script policy of self (and WASM) only`, () => {
      const h = headersFile(text);
      expect(h.get("x-frame-options")).toBe("DENY");
      expect(h.get("referrer-policy")).toBe("no-referrer");
      expect(h.get("x-content-type-options")).toBe("nosniff");
      const csp = directives(h.get("content-security-policy") ?? null);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      // WebAssembly may be compiled (the Receipts page's HEIC decoder), never JavaScript eval'd.
      expect(csp.get("script-src")).toEqual(
        name === "dashboard" ? ["'self'", "'wasm-unsafe-eval'"] : ["'self'"],
      );
      expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
      expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      if (name === "dashboard") expect(csp.get("style-src")).toEqual(["'self'"]);
    });
  }
});
