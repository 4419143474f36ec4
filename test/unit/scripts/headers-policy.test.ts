// A dashboard built for another host (VITE_API_BASE_URL) gets the API's origin in connect-src and
// img-src of its static headers, and nothing else changes (scripts/lib/headers-policy.mjs).
import { describe, expect, it } from "vitest";
import dashboardHeaders from "../../../dashboard/public/_headers?raw";
import { withApiOrigin } from "../../../scripts/lib/headers-policy.mjs";

const policy = (text: string) => text.split("\n").find((l) => l.includes("Content-Security-Policy:")) ?? "";

describe("the dashboard's policy for a separately hosted build", () => {
  it("adds the API origin to connect-src and img-src only", () => {
    const out = withApiOrigin(dashboardHeaders, "https://api.journal.example.com/some/path/");
    const csp = policy(out);
    expect(csp).toContain("connect-src 'self' https://api.journal.example.com;");
    expect(csp).toContain("img-src 'self' https://api.journal.example.com data: blob:;");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).toContain("frame-ancestors 'none'");
    // Every other line is as written.
    const others = (t: string) => t.split("\n").filter((l) => !l.includes("Content-Security-Policy:"));
    expect(others(out)).toEqual(others(dashboardHeaders));
  });

  it("changes nothing without an API base", () => {
    expect(withApiOrigin(dashboardHeaders, undefined)).toBe(dashboardHeaders);
    expect(withApiOrigin(dashboardHeaders, "")).toBe(dashboardHeaders);
  });
});
