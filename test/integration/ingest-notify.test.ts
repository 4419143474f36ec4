import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { notifierFromEnv } from "../../src/notify";
import { buildMime } from "../fixtures/emails/builders";
import { allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { fakeModel, modelServerUrl } from "../helpers/fake-model-client";

const E = env as unknown as Env;
const alert = () =>
  buildMime({
    from: "CIBC <mailbox.noreply@cibc.com>",
    body: "Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for $12.40 at FRESH MART.\nCIBC",
  });

describe("notification providers", () => {
  it("picks the provider from the env; incomplete settings fall back to log-only", () => {
    expect(notifierFromEnv({ ...E, NOTIFY_PROVIDER: "log" }).name).toBe("log");
    expect(notifierFromEnv({ ...E, NOTIFY_PROVIDER: "", NTFY_URL: "https://ntfy.example/t" }).name).toBe(
      "ntfy",
    );
    expect(notifierFromEnv({ ...E, NOTIFY_PROVIDER: "ntfy", NTFY_URL: "" }).name).toBe("log");
    expect(notifierFromEnv({ ...E, NOTIFY_PROVIDER: "twilio" }).name).toBe("log");
    expect(notifierFromEnv({ ...E, NOTIFY_PROVIDER: "sms-topic" }).name).toBe("sms-topic");
  });
});

describe.skipIf(!modelServerUrl())("notification providers over HTTP (fake server as the sink)", () => {
  beforeEach(() => resetIngestTables());

  it("ntfy: POST to NTFY_URL with a title and the message", async () => {
    const sink = await fakeModel();
    const notify = notifierFromEnv({ ...E, NOTIFY_PROVIDER: "ntfy", NTFY_URL: `${sink.sinkBase}/spending` });
    await ingestEmail(alert(), testDeps({ notify }));
    const [req] = await sink.calls();
    expect(req!.path).toMatch(/\/spending$/);
    expect(req!.body.headers.title).toBe("New purchase: $12.40");
    expect(req!.body.text).toContain("$12.40 purchase at FRESH MART");
  });

  it("twilio-style SMS: form POST with basic auth to the configurable base URL", async () => {
    const sink = await fakeModel();
    const notify = notifierFromEnv({
      ...E,
      NOTIFY_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: "AC123",
      TWILIO_AUTH_TOKEN: "tok",
      TWILIO_FROM: "+15550001",
      NOTIFY_TO: "+15550002",
      TWILIO_BASE_URL: sink.sinkBase,
    } as Env);
    await ingestEmail(alert(), testDeps({ notify }));
    const [req] = await sink.calls();
    expect(req!.path).toMatch(/\/2010-04-01\/Accounts\/AC123\/Messages\.json$/);
    expect(req!.body.headers.authorization).toBe(`Basic ${btoa("AC123:tok")}`);
    const form = new URLSearchParams(req!.body.text);
    expect(form.get("To")).toBe("+15550002");
    expect(form.get("From")).toBe("+15550001");
    expect(form.get("Body")).toContain("FRESH MART");
  });

  it("a failing provider never loses the transaction", async () => {
    const sink = await fakeModel();
    await sink.script([{ kind: "status", status: 500 }]);
    const notify = notifierFromEnv({ ...E, NOTIFY_PROVIDER: "ntfy", NTFY_URL: `${sink.sinkBase}/t` });
    expect((await ingestEmail(alert(), testDeps({ notify }))).status).toBe("created");
    expect(await allTransactions()).toHaveLength(1);
    expect(await sink.calls()).toHaveLength(1);
  });
});
