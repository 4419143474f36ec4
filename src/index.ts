import type { Env } from "./env";
import { receiveEmail } from "./ingest/sources/email-routing";
import { consume } from "./jobs/consumer";
import { runCron } from "./jobs/cron";
import { systemClock } from "./lib/clock";
import { workerFetch } from "./oauth/front";

export { JobSlot } from "./db/job-slot";

export default {
  fetch: (request, env, ctx) => workerFetch(request, env, ctx),
  email: (message, env, ctx) => receiveEmail(message, env, ctx),
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(runCron(controller.cron, env, systemClock));
  },
  queue: (batch, env, _ctx) => consume(batch, env),
} satisfies ExportedHandler<Env>;
