// npm run token -- issue --label NAME [--scope read|read+write] | list | revoke ID
//   [--persist-to DIR | --remote]
// Manages API tokens in D1: the local state `npm start` uses (wrangler's .wrangler/state, or
// --persist-to DIR) or the deployed database (--remote). The service looks tokens up in D1 on
// every request, so an issued or revoked token takes effect at once. Only the SHA-256 of a token
// is stored; the raw value is printed once, at issuance.
import { createHash, randomBytes } from "node:crypto";
import { d1Target, runWrangler, stateArgs } from "./lib/wrangler.mjs";

const SCOPES = ["read", "read+write"];
const USAGE = `Usage: npm run token -- <command> [--persist-to DIR | --remote]
  issue --label NAME [--scope read|read+write]   print a new token (shown once; default scope read+write)
  list                                            id, label, scope, created and last-used time
  revoke ID                                       revoke permanently`;

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** A SQL string literal (wrangler's --command takes no bind parameters). */
const sql = (value) => (value === null ? "NULL" : `'${String(value).replaceAll("'", "''")}'`);

function d1(target, command) {
  const res = runWrangler(["d1", "execute", "DB", ...d1Target(target), "--json", "--command", command], {
    capture: true,
    allowFail: true,
  });
  if (res.status !== 0) {
    const out = `${res.stdout ?? ""}${res.stderr ?? ""}`;
    const hint = /no such table/.test(out) ? "\nRun `npm run migrate` (with the same flags) first." : "";
    process.stderr.write(`${out.trim()}${hint}\n`);
    process.exit(1);
  }
  const parsed = JSON.parse(res.stdout.slice(res.stdout.indexOf("[")));
  return parsed.flatMap((r) => r.results ?? []);
}

function option(rest, name) {
  const i = rest.indexOf(name);
  if (i === -1) return undefined;
  const value = rest[i + 1];
  if (value === undefined || value.startsWith("--")) fail(`${name} needs a value`);
  rest.splice(i, 2);
  return value;
}

function issue(target, rest) {
  const label = option(rest, "--label")?.trim();
  const scope = option(rest, "--scope") ?? "read+write";
  if (!label) fail("issue needs --label NAME");
  if (label.length > 100) fail("--label is at most 100 characters");
  if (!SCOPES.includes(scope)) fail(`--scope must be one of: ${SCOPES.join(", ")}`);
  const token = `fin_${randomBytes(32).toString("base64url")}`;
  const id = `tok_${randomBytes(8).toString("hex")}`;
  const hash = createHash("sha256").update(token).digest("hex");
  const now = new Date().toISOString();
  d1(
    target,
    `INSERT INTO api_tokens (id, label, scope, token_hash, created_at) VALUES (${[id, label, scope, hash, now].map(sql).join(", ")})`,
  );
  process.stderr.write(`Issued ${scope} token ${id} "${label}". It is shown once; store it now:\n`);
  process.stdout.write(`${token}\n`);
}

function list(target) {
  const rows = d1(
    target,
    "SELECT id, label, scope, created_at, last_used_at FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at, id",
  );
  if (rows.length === 0) {
    process.stdout.write("No live tokens.\n");
    return;
  }
  const table = [["ID", "LABEL", "SCOPE", "CREATED", "LAST USED"]].concat(
    rows.map((r) => [r.id, r.label, r.scope, r.created_at, r.last_used_at ?? "never"]),
  );
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
  for (const row of table) {
    process.stdout.write(
      `${row
        .map((v, i) => String(v).padEnd(widths[i]))
        .join("  ")
        .trimEnd()}\n`,
    );
  }
}

function revoke(target, rest) {
  const id = rest[0];
  if (!id) fail("revoke needs a token ID (see `list`)");
  const now = new Date().toISOString();
  const rows = d1(
    target,
    `UPDATE api_tokens SET revoked_at = ${sql(now)} WHERE id = ${sql(id)} AND revoked_at IS NULL RETURNING id`,
  );
  if (rows.length === 0) {
    process.stderr.write(`No live token with id ${id}.\n`);
    process.exit(1);
  }
  process.stdout.write(`Revoked ${id}; its next request gets 401.\n`);
}

const { persistTo, remote, rest } = stateArgs(process.argv.slice(2));
const target = { persistTo, remote };
const command = rest.shift();
if (command === "issue") issue(target, rest);
else if (command === "list") list(target);
else if (command === "revoke") revoke(target, rest);
else if (command === undefined || command === "help" || command === "--help" || command === "-h") {
  process.stdout.write(`${USAGE}\n`);
} else fail(`Unknown command: ${command}`);
