// This machine's npm registry mirror serves only the platform binaries that can run here, so
// `npm install` leaves other platforms' optional binaries (darwin, win32, musl, …) out of
// package-lock.json, and `npm ci` then refuses the lockfile as out of sync. This adds a
// platform-guarded entry for each missing optional dependency: npm ci skips them by os/cpu/libc,
// exactly as it would with a complete lockfile. Run after any dependency change:
//   PATH=$PWD/node_modules/.bin:$PATH npm install && node scripts/fix-lock.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dashboard.mjs";

const OS = {
  android: "android",
  darwin: "darwin",
  linux: "linux",
  win32: "win32",
  windows: "win32",
  freebsd: "freebsd",
  openharmony: "openharmony",
  wasm32: null,
};
const CPU = {
  arm64: "arm64",
  x64: "x64",
  64: "x64",
  arm: "arm",
  ppc64: "ppc64",
  s390x: "s390x",
  ia32: "ia32",
};

function platformOf(name) {
  const tail = name.split("/").pop().toLowerCase();
  const bits = tail.split("-");
  const os = bits.map((b) => OS[b]).find((v) => v !== undefined);
  if (os === null) return { cpu: ["wasm32"] };
  const cpu = bits.map((b) => CPU[b]).find(Boolean);
  const out = {};
  if (os) out.os = [os];
  if (cpu) out.cpu = [cpu];
  if (bits.includes("musl")) out.libc = ["musl"];
  else if (bits.includes("gnu") || bits.includes("gnueabihf")) out.libc = ["glibc"];
  return out;
}

const file = join(root, "package-lock.json");
const lock = JSON.parse(readFileSync(file, "utf8"));
const pkgs = lock.packages;
let added = 0;

/** Where Node would find `dep` from the package at `path` (its own node_modules, then upwards). */
function resolve(path, dep) {
  let dir = path;
  for (;;) {
    const hit = pkgs[`${dir ? `${dir}/` : ""}node_modules/${dep}`];
    if (hit) return hit;
    if (!dir) return null;
    const i = dir.lastIndexOf("/node_modules/");
    dir = i < 0 ? "" : dir.slice(0, i);
  }
}
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    const want = spec.replace(/^[\^~=]/, "");
    const found = resolve(path, dep);
    if (found && (found.version === want || !/^\d/.test(want))) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.cpu) continue;
    // Node resolution: a nested copy beside the dependent wins over a hoisted one of another version.
    const at = found ? `${path ? `${path}/` : ""}node_modules/${dep}` : `node_modules/${dep}`;
    pkgs[at] = {
      version: want,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-guarded optional entries added`);
