// X-Activity-Id: a reversible write names its ledger entry, so the dashboard's toast can offer Undo.
import { beforeEach, describe, expect, it } from "vitest";
import { resetState } from "../helpers/auth";
import { call } from "../helpers/http";

beforeEach(resetState);

describe("X-Activity-Id", () => {
  it("a reversible write carries its entry id, and reverting that id undoes the write", async () => {
    await call("/api/v1/config", { method: "PUT", body: { insights_user_memo: "before" } });
    const res = await call("/api/v1/config", { method: "PUT", body: { insights_user_memo: "after" } });
    expect(res.status, res.text).toBe(200);
    const id = res.headers.get("x-activity-id");
    expect(id).toMatch(/^act_[0-9a-f]{24}$/);
    const [latest] = (await call("/api/v1/activity")).body.entries;
    expect(latest.id).toBe(id);
    expect((await call(`/api/v1/activity/${id}/revert`, { method: "POST" })).status).toBe(200);
    expect((await call("/api/v1/config")).body.insights_user_memo).toBe("before");
  });

  it("is absent on reads, failed writes, envelope-only entries and the revert's own entry", async () => {
    expect((await call("/api/v1/config")).headers.get("x-activity-id")).toBeNull();
    const bad = await call("/api/v1/config", { method: "PUT", body: { timezone: 5 } });
    expect(bad.status).toBe(422);
    expect(bad.headers.get("x-activity-id")).toBeNull();
    const token = await call("/api/v1/auth/tokens", { method: "POST", body: { label: "x" } });
    expect(token.status).toBe(201);
    expect(token.headers.get("x-activity-id")).toBeNull();
    const put = await call("/api/v1/config", { method: "PUT", body: { insights_user_memo: "x" } });
    const revert = await call(`/api/v1/activity/${put.headers.get("x-activity-id")}/revert`, {
      method: "POST",
    });
    expect(revert.status).toBe(200);
    expect(revert.headers.get("x-activity-id")).toBeNull();
  });
});
