import { fromHono } from "chanfana";
import { Hono } from "hono";
import { attachmentReverters, attachmentsRouter } from "./domains/attachments";
import { activityRouter } from "./domains/activity";
import { registerReverters } from "./domains/activity/reverters";
import { authRouter } from "./domains/auth";
import { whoamiRouter } from "./domains/whoami";
import { categoriesRouter, categoryReverters } from "./domains/categories";
import { configReverters, configRouter } from "./domains/config";
import { healthRouter } from "./domains/health";
import { ignoreRulesRouter } from "./domains/ignore-rules";
import { ignoredEmailsRouter } from "./domains/ignored-emails";
import { cardNamesRouter } from "./domains/card-names";
import { aliasReverters, merchantAliasesRouter } from "./domains/merchant-aliases";
import { blockedCompaniesRouter, blockedCompanyReverters } from "./domains/blocked-companies";
import { overrideReverters, overridesRouter } from "./domains/overrides";
import { parseFailureReverters, parseFailuresRouter } from "./domains/parse-failures";
import { transactionReverters, transactionsRouter } from "./domains/transactions";
import { summaryRouter } from "./domains/summary";
import { journalRouter } from "./domains/journal";
import { insightsRouter } from "./domains/insights";
import { dataRouter } from "./domains/data";
import { merchantsRouter } from "./domains/merchants";
import { incomeRouter } from "./domains/income";
import { coverageRouter } from "./domains/coverage";
import { statementReverters, statementsRouter } from "./domains/statements";
import { budgetReverters, budgetRouter, groupsRouter } from "./domains/budget";
import { taxReverters, taxRouter } from "./domains/tax";
import { templateReverters, templatesRouter } from "./domains/templates";
import { setupRouter } from "./domains/system";
import { DOCS_CSP, redocPage, swaggerPage } from "./domains/system/docs";
import { llmsTxt, type OpenApiLike } from "./domains/system/llms";
import { connectedAppsRouter } from "./domains/connected-apps";
import { mcpRouter } from "./domains/mcp";
import { activityLedger, type OperationIndex, operationIndexFrom } from "./http/activity";
import { authenticate } from "./http/auth";
import type { AppEnv, Principal } from "./http/context";
import { cors } from "./http/cors";
import { demoGuard } from "./http/demo";
import { securityHeaders } from "./http/headers";
import { methodNotAllowed } from "./http/methods";
import { sameOriginWrites, typedBodies } from "./http/origin";
import { onError, onNotFound } from "./http/errors";
import { type Clock, systemClock } from "./lib/clock";

export interface AppOptions {
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
export function createApp(deps: AppOptions = {}) {
  const clock = deps.clock ?? systemClock;
  const app = new Hono<AppEnv>();

  app.onError(onError);
  // A known path under another method: 405 with Allow; otherwise the 404 envelope.
  app.notFound((c) => methodNotAllowed(app.routes, c) ?? onNotFound(c));

  app.use("*", securityHeaders);
  app.use("*", async (c, next) => {
    c.set("clock", clock);
    c.set("principal", ANONYMOUS);
    await next();
  });
  app.use("*", cors);
  app.use("/api/*", demoGuard);
  app.use("/api/*", typedBodies);
  app.use("*", authenticate);
  app.use("/api/*", sameOriginWrites);
  let operations: OperationIndex | undefined;
  app.use(
    "/api/*",
    activityLedger(() => {
      operations ??= operationIndexFrom(openapi.registry.definitions);
      return operations;
    }),
  );

  const openapi = fromHono(app, {
    passthroughErrors: true,
    // Our own pages (src/domains/system/docs.ts): they fall back to an offline reader.
    docs_url: null,
    redoc_url: null,
    openapi_url: "/openapi.json",
    openapiVersion: "3.1",
    schema: {
      info: OPENAPI_INFO,
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
      tags: [
        { name: "health", description: "Liveness and last-activity probe (public)" },
        { name: "config", description: "Runtime application configuration, its checks and the AI readiness" },
        { name: "data", description: "Full-data backup: a zip of every table (never secrets)" },
        {
          name: "categories",
          description:
            "The category list; add, rename, delete (with reassignment), group and icon; usage before delete",
        },
        {
          name: "transactions",
          description:
            "Transactions by month, detail, edits, trash, attention queue, bulk updates, search and CSV " +
            "export, hand entry and raw email upload",
        },
        {
          name: "summary",
          description: "Monthly summaries, month-over-month deltas, anomalies, pace and trends",
        },
        {
          name: "journal",
          description: "Day-grouped timeline with month-to-date running totals; AI-written day summaries",
        },
        {
          name: "insights",
          description:
            "Monthly briefing: the context snapshot, background generation, saved briefings with a figure check",
        },
        {
          name: "merchants",
          description: "Merchant intelligence: recurring charges, price changes, new and churned, burn rate",
        },
        { name: "income", description: "Annual income vs. expenses by company and category" },
        { name: "coverage", description: "Per-institution alert cadence and the email capture rate" },
        { name: "system", description: "First run: how alerts get in, password and demo-data offers" },
        {
          name: "statements",
          description: "Statement upload (PDF, CSV, OFX, QFX), reconciliation, review and import",
        },
        {
          name: "budget",
          description: "Budget targets, pace status, forecasts, historical averages and display groups",
        },
        {
          name: "attachments",
          description:
            "Receipts and documents: upload, inline file, AI read (opt-in), match candidates, link",
        },
        {
          name: "tax",
          description: "Year-end tax pack: claim lines, evidence, include/exclude overrides, the zip",
        },
        {
          name: "blocked-companies",
          description: "Companies whose transactions send no notification (the blocked-company list)",
        },
        { name: "parse-failures", description: "Quarantined alert emails: list, retry, resolve, dismiss" },
        { name: "ignored-emails", description: "Emails read as not bank alerts: list, mark as a bank alert" },
        { name: "card-names", description: "Names given to cards by their last digits" },
        { name: "templates", description: "Bank alert templates learned from hand-resolved emails" },
        {
          name: "connected-apps",
          description: "Apps connected to /mcp through OAuth 2.1 (list, disconnect)",
        },
        {
          name: "auth",
          description:
            "Webapp cookie-session auth (set/change password, login, logout, sign out all) and API tokens",
        },
        { name: "whoami", description: "Caller introspection: who is asking, with what scope" },
        { name: "activity", description: "Activity ledger: the write journal and stale-guarded revert" },
      ],
    },
  });

  openapi.registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer fin_...` (scope `read`: GET only; `read+write`: everything)",
  });
  openapi.registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "app_session",
    description: "Browser session from POST /api/v1/auth/login (needed once a password is set)",
  });

  openapi.route("/api/v1/health", healthRouter());
  openapi.route("/api/v1/config", configRouter());
  openapi.route("/api/v1/categories", categoriesRouter());
  openapi.route("/api/v1/overrides", overridesRouter());
  openapi.route("/api/v1/merchant-aliases", merchantAliasesRouter());
  openapi.route("/api/v1/ignore-rules", ignoreRulesRouter());
  openapi.route("/api/v1/blocked-companies", blockedCompaniesRouter());
  openapi.route("/api/v1/transactions", transactionsRouter());
  openapi.route("/api/v1/summary", summaryRouter());
  openapi.route("/api/v1/journal", journalRouter());
  openapi.route("/api/v1/insights", insightsRouter());
  openapi.route("/api/v1/data", dataRouter());
  openapi.route("/api/v1/merchants", merchantsRouter());
  openapi.route("/api/v1/income-statement", incomeRouter());
  openapi.route("/api/v1/coverage", coverageRouter());
  openapi.route("/api/v1/statements", statementsRouter());
  openapi.route("/api/v1/parse-failures", parseFailuresRouter());
  openapi.route("/api/v1/ignored-emails", ignoredEmailsRouter());
  openapi.route("/api/v1/card-names", cardNamesRouter());
  openapi.route("/api/v1/templates", templatesRouter());
  openapi.route("/api/v1/auth", authRouter());
  openapi.route("/api/v1/whoami", whoamiRouter());
  openapi.route("/api/v1/connected-apps", connectedAppsRouter());
  openapi.route("/api/v1/activity", activityRouter());
  openapi.route("/api/v1/budget", budgetRouter());
  openapi.route("/api/v1/groups", groupsRouter());
  openapi.route("/api/v1/tax-pack", taxRouter());
  openapi.route("/api/v1/attachments", attachmentsRouter());
  openapi.route("/api/v1/setup", setupRouter());
  // What POST /activity/{id}/revert can undo: each domain's reverters by resource kind.
  registerReverters(
    statementReverters,
    parseFailureReverters,
    categoryReverters,
    transactionReverters,
    configReverters,
    overrideReverters,
    aliasReverters,
    budgetReverters,
    attachmentReverters,
    taxReverters,
    templateReverters,
    blockedCompanyReverters,
  );

  // The MCP endpoint (token-only, outside the OpenAPI document: it speaks JSON-RPC).
  app.route("/mcp", mcpRouter());

  app.get("/docs", (c) => c.html(swaggerPage("/openapi.json"), 200, { "Content-Security-Policy": DOCS_CSP }));
  app.get("/redoc", (c) => c.html(redocPage("/openapi.json"), 200, { "Content-Security-Policy": DOCS_CSP }));
  app.get("/llms.txt", (c) => {
    const base = new URL(c.req.url).origin;
    return c.text(llmsTxt(base, c.env.APP_VERSION ?? "0.0.0", openapi.schema as OpenApiLike));
  });

  return openapi;
}

export const app = createApp();
