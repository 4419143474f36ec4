import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";

let fm: FakeModel;
const test = (body: unknown, extra: Record<string, string> = {}) =>
  call("/api/v1/config/test-model-key", {
    method: "POST",
    body,
    env: { MODEL_BASE_URL: `${modelServerUrl()}/v1`, ...extra },
  });

describe.skipIf(!modelServerUrl())("Settings → Intelligence checks", () => {
  beforeAll(async () => {
    fm = await fakeModel();
  });

  it("test a connection: reachable, key rejected, model not found, in words; the key is never echoed", async () => {
    await fm.script([
      { kind: "status", status: 401 },
      { kind: "status", status: 404 },
    ]);
    const rejected = await test({ api_key: fm.key });
    expect(rejected.body).toMatchObject({
      ok: false,
      verdict: "key_rejected",
      error: expect.stringMatching(/^Key rejected/),
    });
    expect(rejected.text).not.toContain(fm.key);
    const missing = await test({ api_key: fm.key, model: "no-such-model" });
    expect(missing.body).toMatchObject({ ok: false, verdict: "model_not_found" });
    const ok = await test({ api_key: fm.key, model: "fake-chat" });
    expect(ok.body).toMatchObject({
      ok: true,
      verdict: "reachable",
      error: null,
      message: expect.stringMatching(/^Reachable/),
    });
    const calls = (await fm.calls()).filter((c) => c.path.endsWith("/chat/completions"));
    expect(calls.map((c) => c.body.model)).toEqual(["gpt-4o-mini", "no-such-model", "fake-chat"]);
  });

  it("the configured key is used when none is typed; none at all is 'not configured'", async () => {
    await fm.script([]);
    expect((await test({}, { MODEL_API_KEY: fm.key })).body.verdict).toBe("reachable");
    expect((await test({}, { MODEL_API_KEY: "" })).body).toMatchObject({
      ok: false,
      verdict: "not_configured",
    });
  });

  it("cli providers are tested through the bridge; no bridge address is 'not configured'", async () => {
    await fm.script([]);
    const viaBridge = await test(
      { provider: "cli_c" },
      { MODEL_BRIDGE_URL: modelServerUrl()!, MODEL_BRIDGE_TOKEN: fm.key },
    );
    expect(viaBridge.body.verdict).toBe("reachable");
    expect((await fm.calls()).at(-1)!.body.model).toBe("cli_c");
    expect((await test({ provider: "cli_c" }, { MODEL_BRIDGE_URL: "" })).body.verdict).toBe("not_configured");
    expectEnvelope(await test({ provider: "disabled" }), 422, "VALIDATION_ERROR");
  });

  it("unreachable address", async () => {
    const res = await test({ api_key: "k" }, { MODEL_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(res.body).toMatchObject({ ok: false, verdict: "unreachable" });
  });
});

describe("object backup checks", () => {
  it("test-object-backup writes, reads back and removes a probe", async () => {
    const res = await call("/api/v1/config/test-object-backup", {
      method: "POST",
      body: { bucket: "my-bucket", prefix: "backups/test" },
    });
    expect(res.body).toMatchObject({ ok: true, error: null });
    expect((await env.FILES.list({ prefix: "backups/test/" })).objects).toEqual([]);
    expectEnvelope(
      await call("/api/v1/config/test-object-backup", { method: "POST", body: {} }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("status reads the daily zips under the configured prefix", async () => {
    await call("/api/v1/config", {
      method: "PUT",
      body: { object_backup_enabled: true, object_backup_prefix: "bk" },
    });
    await env.FILES.put("bk/2024-10-01.zip", "z");
    await env.FILES.put("bk/2024-10-02.zip", "z");
    const res = await call("/api/v1/data/object-backup-status");
    expect(res.body).toMatchObject({
      enabled: true,
      prefix: "bk/",
      objects_total: 2,
      uploaded_count: 2,
      last_error: null,
    });
    expect(res.body.last_success_at).toEqual(expect.any(String));
  });
});
