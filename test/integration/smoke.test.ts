import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";

describe("smoke", () => {
  it("health answers", async () => {
    const res = await call("/api/v1/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });
  it("config answers", async () => {
    const res = await call("/api/v1/config");
    expect(res.status).toBe(200);
    console.log(JSON.stringify(res.body));
  });
  it("openapi", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    console.log(Object.keys(res.body.paths));
  });
});
