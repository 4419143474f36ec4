// The Workers plan limits `npm run check:deploy` holds the built Worker to (scripts/check-deploy.mjs
// measures; this module only compares, so the unit test can feed it numbers). Sources: Cloudflare's
// Workers limits page (developers.cloudflare.com/workers/platform/limits/).

const MB = 1_000_000;

/**
 * Worker size. Cloudflare documents 10 MB compressed on Paid and 3 MB on Free, and 64 MB
 * uncompressed (a documentation change of May 2026, cloudflare-docs#31002, drops the compressed limit
 * for the uncompressed one on every plan). The house rule is stricter than the plan: the Worker stays
 * within 3 MB compressed, Free's figure, so we check that as our own budget. MB are counted as
 * 1,000,000 bytes, the smaller reading of Cloudflare's "MB".
 */
export const LIMITS = {
  gzipBytes: 3 * MB,
  gzipBytesPaid: 10 * MB,
  rawBytes: 64 * MB,
  // Startup (parsing and running the global scope) must finish within 1 s.
  startupMs: 1000,
  // Cron Triggers: 250 per account on Paid (5 on Free); this Worker's own count is what we can see.
  crons: 250,
  cronsFree: 5,
  // Environment variables: 128 per Worker on Paid (64 on Free).
  vars: 128,
  varsFree: 64,
};

/** Binding kinds the Paid plan offers and this project may use; anything else fails until reviewed. */
export const PAID_KINDS = [
  "D1",
  "R2",
  "KV",
  "Queue producer",
  "Queue consumer",
  "Durable Object (SQLite)",
  "Durable Object (key-value)",
  "Email",
  "Assets",
  "Environment variable",
];
// Free offers the same kinds except key-value-backed Durable Objects (SQLite-backed only).
const NOT_ON_FREE = new Set(["Durable Object (key-value)"]);

const mb = (n) => `${(n / MB).toFixed(2)} MB`;
const line = (ok, what, value, limit) =>
  `${ok ? "PASS" : "FAIL"}  ${what.padEnd(22)} ${value.padStart(10)}   limit ${limit}`;

/**
 * Compares measured values with the limits. `measured`: { gzipBytes, rawBytes, startupMs (number,
 * or null when not measured), startupHow (how it was measured), crons, bindingKinds (string[]),
 * bindingCount, varsCount, compatibilityDate, today ("YYYY-MM-DD") }.
 * Returns { ok, lines }: one line per check, value beside its limit; ok is false on any breach.
 */
export function checkDeploy(m) {
  const lines = [];
  let ok = true;
  const check = (pass, what, value, limit) => {
    if (!pass) ok = false;
    lines.push(line(pass, what, value, limit));
  };

  check(
    m.gzipBytes <= LIMITS.gzipBytes,
    "bundle, gzip",
    mb(m.gzipBytes),
    `${mb(LIMITS.gzipBytes)} (house budget; Paid plan allows ${mb(LIMITS.gzipBytesPaid)}, Free ${mb(LIMITS.gzipBytes)})`,
  );
  check(
    m.rawBytes <= LIMITS.rawBytes,
    "bundle, uncompressed",
    mb(m.rawBytes),
    `${mb(LIMITS.rawBytes)} (every plan)`,
  );

  if (m.startupMs == null) {
    lines.push(`----  ${"startup".padEnd(22)} ${"not measured".padStart(10)}   limit ${LIMITS.startupMs} ms`);
  } else {
    check(
      m.startupMs <= LIMITS.startupMs,
      "startup",
      `${Math.round(m.startupMs)} ms`,
      `${LIMITS.startupMs} ms${m.startupHow ? ` (${m.startupHow})` : ""}`,
    );
  }

  check(
    m.crons <= LIMITS.crons,
    "Cron Triggers",
    String(m.crons),
    `${LIMITS.crons} per account on Paid (Free: ${LIMITS.cronsFree})`,
  );

  const unknown = m.bindingKinds.filter((k) => !PAID_KINDS.includes(k));
  const freeOnly = m.bindingKinds.filter((k) => NOT_ON_FREE.has(k));
  check(
    unknown.length === 0,
    "binding kinds",
    String(m.bindingKinds.length),
    unknown.length === 0
      ? `each on Paid: ${m.bindingKinds.join(", ")}${freeOnly.length ? ` (not on Free: ${freeOnly.join(", ")})` : ""}`
      : `not in the reviewed list: ${unknown.join(", ")}`,
  );
  check(
    m.varsCount <= LIMITS.vars,
    "environment variables",
    String(m.varsCount),
    `${LIMITS.vars} on Paid (Free: ${LIMITS.varsFree})`,
  );
  lines.push(
    `info  ${"bindings".padEnd(22)} ${String(m.bindingCount).padStart(10)}   (every binding, variables included)`,
  );

  const date = m.compatibilityDate;
  const valid =
    typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(date));
  check(
    valid && date <= m.today,
    "compatibility_date",
    date ? String(date) : "missing",
    `present, a date not after today (${m.today})`,
  );
  return { ok, lines };
}

/**
 * Active time (ms) of a V8 .cpuprofile: every sample that is not "(idle)", each counted with the
 * time since the previous sample (as wrangler check startup sums its "Active" figure).
 */
export function activeMs(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let us = 0;
  for (let i = 0; i < profile.samples.length; i++)
    if (!idle.has(profile.samples[i])) us += profile.timeDeltas[i] ?? 0;
  return us / 1000;
}
