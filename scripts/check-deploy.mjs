#!/usr/bin/env node
// npm run check:deploy: builds the Worker as `wrangler deploy --dry-run` does (offline, no Cloudflare
// account), measures what Cloudflare limits and compares it with the Workers Paid plan
// (scripts/lib/deploy-limits.mjs): bundle size gzip-compressed (our own 3 MB budget) and raw, startup
// (wrangler check startup: a CPU profile of the startup phase in local workerd), Cron Triggers,
// binding kinds, variables and compatibility_date. Prints each value beside its limit; exits 1 on
// a breach. The dashboard is not built: its assets are uploaded apart from the Worker and do not
// count, but wrangler needs the folder, so a fresh clone gets the placeholder (ensureAssetsFolder).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ensureAssetsFolder, root } from "./lib/dashboard.mjs";
import { activeMs, checkDeploy } from "./lib/deploy-limits.mjs";
import { wranglerBin } from "./lib/wrangler.mjs";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "true" };

function wrangler(args) {
  const res = spawnSync(wranglerBin, args, {
    cwd: root,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { ok: res.status === 0, output: `${res.stdout ?? ""}${res.stderr ?? ""}` };
}

/** Upload sizes of the built modules: source maps and wrangler's README are not uploaded. */
function moduleSizes(dir) {
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".map") || name === "README.md" || !statSync(join(dir, name)).isFile()) continue;
    const bytes = readFileSync(join(dir, name));
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes).length;
  }
  return { rawBytes, gzipBytes };
}

/** Binding kinds and count from wrangler's own reading of wrangler.toml. */
async function readBindings() {
  const { unstable_readConfig } = await import("wrangler");
  const c = unstable_readConfig({ config: join(root, "wrangler.toml") });
  const sqlite = new Set(c.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  const kinds = [];
  let count = 0;
  const add = (kind, n) => {
    if (n > 0 && !kinds.includes(kind)) kinds.push(kind);
    count += kind === "Queue consumer" ? 0 : n; // a consumer is a trigger, not an env binding
  };
  add("D1", c.d1_databases.length);
  add("R2", c.r2_buckets.length);
  add("KV", c.kv_namespaces.length);
  add("Queue producer", c.queues.producers?.length ?? 0);
  add("Queue consumer", c.queues.consumers?.length ?? 0);
  for (const d of c.durable_objects.bindings)
    add(sqlite.has(d.class_name) ? "Durable Object (SQLite)" : "Durable Object (key-value)", 1);
  add("Email", c.send_email.length);
  add("Assets", c.assets?.binding ? 1 : 0);
  const vars = Object.keys(c.vars ?? {}).length;
  add("Environment variable", vars);
  // Kinds this project does not use yet: present means "not reviewed" (checkDeploy fails on them).
  const others = {
    services: "Service binding",
    ai: "Workers AI",
    vectorize: "Vectorize",
    hyperdrive: "Hyperdrive",
    analytics_engine_datasets: "Analytics Engine",
    browser: "Browser Rendering",
    workflows: "Workflows",
    dispatch_namespaces: "Dispatch namespace",
    mtls_certificates: "mTLS certificate",
    images: "Images",
    version_metadata: "Version metadata",
    secrets_store_secrets: "Secrets Store",
    unsafe: "unsafe binding",
  };
  for (const [key, kind] of Object.entries(others)) {
    const v = c[key];
    const n = Array.isArray(v) ? v.length : v && Object.keys(v).length ? 1 : 0;
    add(kind, n);
  }
  return {
    bindingKinds: kinds,
    bindingCount: count,
    varsCount: vars,
    crons: c.triggers?.crons?.length ?? 0,
    compatibilityDate: c.compatibility_date,
  };
}

async function main() {
  const started = performance.now();
  ensureAssetsFolder();
  const tmp = mkdtempSync(join(tmpdir(), "fj-check-deploy-"));
  try {
    const out = join(tmp, "out");
    const bundle = join(tmp, "worker.bundle");
    const build = wrangler(["deploy", "--dry-run", "--outdir", out, "--outfile", bundle]);
    if (!build.ok) {
      process.stderr.write(build.output);
      console.error("check:deploy: the Worker did not build (wrangler deploy --dry-run failed)");
      process.exit(1);
    }
    const sizes = moduleSizes(out);

    let startupMs = null;
    let startupHow =
      "wrangler check startup: local workerd CPU profile, this machine's CPU, not Cloudflare's";
    const profilePath = join(tmp, "startup.cpuprofile");
    const startup = wrangler(["check", "startup", "--worker", bundle, "--outfile", profilePath]);
    if (startup.ok) startupMs = activeMs(JSON.parse(readFileSync(profilePath, "utf8")));
    else {
      startupHow = "";
      console.error(`startup not measured: wrangler check startup failed\n${startup.output.slice(-2000)}`);
    }

    const config = await readBindings();
    const { ok, lines } = checkDeploy({
      ...sizes,
      startupMs,
      startupHow,
      ...config,
      today: new Date().toISOString().slice(0, 10),
    });
    console.log(`check:deploy — the built Worker against the Workers Paid plan's limits\n`);
    for (const l of lines) console.log(l);
    console.log(
      `\n${ok ? "within every limit" : "LIMIT BREACHED"} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
