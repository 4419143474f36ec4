import type { Env } from "../env";
import { log } from "../lib/log";
import { QueueMessage } from "./messages";

export type JobHandler = (env: Env, msg: QueueMessage) => Promise<void>;

/** Handlers registered by domains: R2 "raw email arrived" events and named AI jobs. */
const handlers: { r2?: JobHandler; jobs: Record<string, JobHandler> } = { jobs: {} };

export function registerR2Handler(h: JobHandler): void {
  handlers.r2 = h;
}
export function registerJobHandler(kind: string, h: JobHandler): void {
  handlers.jobs[kind] = h;
}

/** Queue consumer: validate, dispatch by message type, ack or retry. Invalid bodies are acked. */
export async function consume(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = QueueMessage.safeParse(message.body);
    if (!parsed.success) {
      log("warn", "queue.invalid_message", { id: message.id });
      message.ack();
      continue;
    }
    const body = parsed.data;
    const handler = "type" in body ? handlers.jobs[body.kind] : handlers.r2;
    if (!handler) {
      log("warn", "queue.no_handler", { id: message.id, kind: "type" in body ? body.kind : "r2" });
      message.ack();
      continue;
    }
    try {
      await handler(env, body);
      message.ack();
    } catch (err) {
      log("error", "queue.handler_failed", {
        id: message.id,
        attempts: message.attempts,
        error: String(err),
      });
      message.retry({ delaySeconds: Math.min(300, 5 * 2 ** Math.max(0, message.attempts - 1)) });
    }
  }
}
