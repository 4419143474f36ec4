import { fromHono } from "chanfana";
import { Hono } from "hono";
import { configRouter } from "./domains/config";
import { healthRouter } from "./domains/health";
import { llmsTxt } from "./domains/system/llms";
import type { AppEnv, Principal } from "./http/context";
import { demoGuard } from "./http/demo";
import { onError, onNotFound } from "./http/errors";
import { type Clock, systemClock } from "./lib/clock";

export interface AppDeps {
  clock?: Clock;
}

const ANONYMOUS: Principal = { kind: "tofu", id: null, label: null, scope: null };

export const OPENAPI_INFO = {
  title: "Finance Journal API",
  version: "0.1.0",
  description:
    "A private, single-user spending journal: bank alert emails and statement PDFs become categorized " +
    "transactions, served with budgets, summaries and narratives. Every 4xx/5xx body is " +
    "`{error, code, details}`. Routes live under `/api/v1/`; the committed schema is the change log.",
};

/** Builds the Hono app: middleware order, the OpenAPI registry, one router per domain. */
export function createApp(deps: AppDeps = {}) {
  const clock = deps.clock ?? systemClock;
  const app = new Hono<AppEnv>();

  app.onError(onError);
  app.notFound(onNotFound);

  app.use("*", async (c, next) => {
    c.set("clock", clock);
    c.set("principal", ANONYMOUS);
    await next();
  });
  app.use("/api/*", demoGuard);

  const openapi = fromHono(app, {
    passthroughErrors: true,
    docs_url: "/docs",
    redoc_url: "/redoc",
    openapi_url: "/openapi.json",
    openapiVersion: "3.1",
    schema: {
      info: OPENAPI_INFO,
      tags: [
        { name: "health", description: "Liveness and last-activity probe (public)" },
        { name: "config", description: "Runtime application configuration" },
      ],
    },
  });

  openapi.route("/api/v1/health", healthRouter());
  openapi.route("/api/v1/config", configRouter());

  app.get("/llms.txt", (c) => {
    const base = new URL(c.req.url).origin;
    return c.text(llmsTxt(base, c.env.APP_VERSION ?? "0.0.0"));
  });

  return openapi;
}

export const app = createApp();
