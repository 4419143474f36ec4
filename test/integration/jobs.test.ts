import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { consume, QUEUE_HANDLERS, type QueueHandlers } from "../../src/jobs/consumer";
import { runCron, type Schedule } from "../../src/jobs/cron";
import { CRON, SCHEDULE } from "../../src/jobs/schedule";
import { acquire, finish } from "../../src/db/job-slot-state";
import { type JobSlot, jobSlot } from "../../src/db/job-slot";
import { systemClock } from "../../src/lib/clock";
import wranglerToml from "../../wrangler.toml?raw";
import { buildMime } from "../fixtures/emails/builders";

describe("JobSlot durable object", () => {
  it("holds one running job per kind: a second start is refused until the first completes", async () => {
    const slot = jobSlot(env, "journal-summaries");
    const first = await slot.start("journal-summaries");
    expect(first.ok).toBe(true);
    const second = await slot.start("journal-summaries");
    expect(second.ok).toBe(false);
    expect(second.job.id).toBe(first.job.id);
    expect(await slot.progress(first.job.id, { done: 3, total: 10 })).toBe(true);
    expect((await slot.status())?.progress).toEqual({ done: 3, total: 10 });
    const done = await slot.complete(first.job.id, { result: { days: 10 } });
    expect(done?.status).toBe("done");
    expect((await slot.start("journal-summaries")).ok).toBe(true);
  });

  it("kinds are independent and state lives in the object's storage", async () => {
    const a = jobSlot(env, "insights");
    const b = jobSlot(env, "other");
    expect((await a.start("insights")).ok).toBe(true);
    expect((await b.start("other")).ok).toBe(true);
    const id = env.JOB_SLOT.idFromName("insights");
    await runInDurableObject(env.JOB_SLOT.get(id), async (_obj: JobSlot, state) => {
      expect((state.storage.kv.get("job") as { status: string }).status).toBe("running");
    });
  });

  it("an abandoned job (past its lease) can be replaced", () => {
    const t0 = "2026-01-01T00:00:00.000Z";
    const held = acquire(null, "k", "a", t0, 1000);
    if (!held.ok) throw new Error("expected ok");
    expect(acquire(held.job, "k", "b", "2026-01-01T00:00:00.500Z", 1000).ok).toBe(false);
    expect(acquire(held.job, "k", "b", "2026-01-01T00:00:01.000Z", 1000).ok).toBe(true);
    expect(finish(held.job, t0, { error: "boom" }).status).toBe("failed");
  });
});

describe("queue consumer", () => {
  const jobBatch = (messages: { id: string; attempts: number; body: unknown }[]) =>
    createMessageBatch(
      "finance-journal-jobs",
      messages.map((m) => ({ ...m, timestamp: new Date() })),
    );

  it("dispatches job messages from its table and acks them; invalid bodies are acked too", async () => {
    const seen: unknown[] = [];
    const handlers: QueueHandlers = {
      ...QUEUE_HANDLERS,
      jobs: { "test-kind": async (_env, msg) => void seen.push(msg) },
    };
    const batch = jobBatch([
      { id: "m1", attempts: 1, body: { type: "job", kind: "test-kind", payload: { n: 1 } } },
      { id: "m2", attempts: 1, body: { nonsense: true } },
      { id: "m2b", attempts: 1, body: { type: "job", kind: "nobody-handles-this" } },
    ]);
    const ctx = createExecutionContext();
    await consume(batch, env, handlers);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2", "m2b"]);
    expect(seen).toEqual([{ type: "job", kind: "test-kind", payload: { n: 1 } }]);
  });

  it("retries a message whose handler fails", async () => {
    const handlers: QueueHandlers = {
      ...QUEUE_HANDLERS,
      jobs: {
        flaky: async () => {
          throw new Error("transient");
        },
      },
    };
    const batch = jobBatch([{ id: "m3", attempts: 2, body: { type: "job", kind: "flaky" } }]);
    const ctx = createExecutionContext();
    await consume(batch, env, handlers);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m3"]);
  });

  it("an R2 event sent through the real queue binding reaches the Worker's table (the R2 door)", async () => {
    const key = "inbox/jobs-roundtrip.eml";
    await env.FILES.put(
      key,
      buildMime({
        from: "CIBC <mailbox.noreply@cibc.com>",
        to: "queue@example.com",
        messageId: "<roundtrip@jobs>",
        body: "Dear Sam,\n You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $12.34 at QUEUE CAFE.\nCIBC",
      }),
    );
    await env.JOBS.send({ bucket: "b", action: "PutObject", object: { key } });
    for (let i = 0; i < 50 && (await env.FILES.head(key)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await env.FILES.head(key)).toBeNull();
    const row = await env.DB.prepare("SELECT Amount, Company FROM transactions WHERE ForwardedTo = ?")
      .bind("queue@example.com")
      .first();
    expect(row).toEqual({ Amount: 1234, Company: "QUEUE CAFE" });
  });
});

describe("cron", () => {
  it("runs the duties listed for an expression; one failure does not stop the rest", async () => {
    const ran: string[] = [];
    const schedule: Schedule = {
      "*/7 * * * *": [
        {
          name: "boom",
          run: async () => {
            throw new Error("task failed");
          },
        },
        { name: "after", run: async () => void ran.push("after") },
      ],
    };
    expect(await runCron("*/7 * * * *", env, systemClock, schedule)).toEqual(["after"]);
    expect(ran).toEqual(["after"]);
    expect(await runCron("*/5 * * * *", env, systemClock, schedule)).toEqual([]);
  });

  it("the Worker's schedule lists every background duty under the expressions wrangler.toml declares", () => {
    const names = Object.fromEntries(
      Object.entries(SCHEDULE).map(([cron, duties]) => [cron, duties.map((d) => d.name)]),
    );
    const declared = JSON.parse(/^crons = (\[.*\])$/m.exec(wranglerToml)?.[1] ?? "[]") as string[];
    expect(Object.keys(names).sort()).toEqual([...declared].sort());
    expect(names).toEqual({
      [CRON.everyMinute]: ["imap.poll", "inbox.sweep", "summaries.daily"],
      [CRON.daily]: ["backup.daily", "activity.retention", "ignored.retention", "auth.prune"],
      [CRON.monthly]: ["summary.monthly"],
    });
  });

  it("scheduled() dispatches through the schedule (an unknown expression runs nothing, never throws)", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/7 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // The every-minute duties run without a mailbox configured and with an empty inbox.
    expect(await runCron(CRON.everyMinute, env, systemClock)).toEqual([
      "imap.poll",
      "inbox.sweep",
      "summaries.daily",
    ]);
  });
});
