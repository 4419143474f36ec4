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
import { registerJobHandler } from "../../src/jobs/consumer";
import { registerCron, runCron } from "../../src/jobs/cron";
import { acquire, finish } from "../../src/jobs/slot-state";
import { type JobSlot, jobSlot } from "../../src/jobs/slot";
import { systemClock } from "../../src/lib/clock";

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
  it("dispatches job messages to their handler and acks them", async () => {
    const seen: unknown[] = [];
    registerJobHandler("test-kind", async (_env, msg) => {
      seen.push(msg);
    });
    const batch = createMessageBatch("finance-journal-jobs", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 1,
        body: { type: "job", kind: "test-kind", payload: { n: 1 } },
      },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { nonsense: true } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(seen).toEqual([{ type: "job", kind: "test-kind", payload: { n: 1 } }]);
  });

  it("retries a message whose handler fails", async () => {
    registerJobHandler("flaky", async () => {
      throw new Error("transient");
    });
    const batch = createMessageBatch("finance-journal-jobs", [
      { id: "m3", timestamp: new Date(), attempts: 2, body: { type: "job", kind: "flaky" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m3"]);
  });

  it("a message sent through the real queue binding reaches the consumer", async () => {
    const got: unknown[] = [];
    registerJobHandler("roundtrip", async (_env, msg) => {
      got.push(msg);
    });
    await env.JOBS.send({ type: "job", kind: "roundtrip", payload: { hello: "queue" } });
    for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([{ type: "job", kind: "roundtrip", payload: { hello: "queue" } }]);
  });
});

describe("cron", () => {
  it("scheduled() runs the tasks registered for that expression; one failure does not stop the rest", async () => {
    const ran: string[] = [];
    registerCron("*/7 * * * *", "boom", async () => {
      throw new Error("task failed");
    });
    registerCron("*/7 * * * *", "after", async () => {
      ran.push("after");
    });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/7 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(ran).toEqual(["after"]);
    expect(await runCron("*/7 * * * *", env, systemClock)).toEqual(["after"]);
  });
});
