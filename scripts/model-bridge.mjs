// npm run model-bridge: the local companion for the command-line model tools (cli_a, cli_b, cli_c).
// A Worker cannot start processes, so this small server on loopback speaks the chat-completions
// protocol and, for each request, runs the command configured for the provider named in `model`
// ("cli_a" or "cli_a:<model>"): the prompt goes to the command's stdin, its stdout is the answer.
//
//   BRIDGE_CLI_A_CMD='my-tool --model {model} -'   (likewise BRIDGE_CLI_B_CMD, BRIDGE_CLI_C_CMD)
//   BRIDGE_CLI_A_MODELS='small,large'   the models a caller may name for cli_a ({model} becomes
//                                       the bridge's own copy of one of these; the first is the default)
//   BRIDGE_PORT=8799  BRIDGE_TIMEOUT_SECONDS=170  BRIDGE_ALLOWED_HOSTS=tunnel.example.org (optional)
//   BRIDGE_STATE_DIR (default $XDG_CONFIG_HOME/finance-journal, else ~/.config/finance-journal)
//   BRIDGE_TOKEN (optional, at least 32 characters: use this token instead of the file's)
//
// It takes no stranger's orders: on first start it makes a random token, keeps it in
// <state dir>/model-bridge-token (mode 0600) and prints it once; every request must carry it as
// `Authorization: Bearer <token>` (the Worker sends MODEL_BRIDGE_TOKEN). A request with an Origin
// header (a web page) or a Host that is not loopback (DNS rebinding) is refused, bodies must be
// application/json, and nothing the caller sends reaches a command line: the provider picks the
// command, a model name must be on that provider's allowlist, and the prompt goes through stdin.
// The Worker reaches it at MODEL_BRIDGE_URL: under `npm start` directly (MODEL_BRIDGE_URL=
// http://127.0.0.1:8799 and MODEL_BRIDGE_TOKEN in .dev.vars); deployed, through a tunnel to this
// machine (e.g. `cloudflared tunnel --url http://127.0.0.1:8799 --http-host-header 127.0.0.1`,
// then `wrangler secret put MODEL_BRIDGE_URL` and `wrangler secret put MODEL_BRIDGE_TOKEN`).
// GET /health says which tools are set up and runnable. Nothing is logged but the provider, the
// exit status and the duration.
import { spawn } from "node:child_process";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const PROVIDERS = ["cli_a", "cli_b", "cli_c"];
const MAX_BODY = 2_000_000;
const MAX_OUTPUT = 1_000_000;

/** Splits a command line into words (double or single quotes group; no shell is involved). */
export function splitCommand(line) {
  const words = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1]?.replace(/\\(.)/g, "$1") ?? m[2] ?? m[3]);
  return words;
}

const list = (v) =>
  (v ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

export function configFromEnv(env = process.env) {
  const commands = {};
  const models = {};
  for (const p of PROVIDERS) {
    const line = env[`BRIDGE_${p.toUpperCase()}_CMD`]?.trim();
    if (line) commands[p] = splitCommand(line);
    const allowed = list(env[`BRIDGE_${p.toUpperCase()}_MODELS`]);
    if (allowed.length) models[p] = allowed;
  }
  const seconds = Number(env.BRIDGE_TIMEOUT_SECONDS);
  return {
    commands,
    models,
    token: env.BRIDGE_TOKEN?.trim() || null,
    allowedHosts: list(env.BRIDGE_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
    timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 170) * 1000,
  };
}

/** The bridge's own state directory (the token file lives there). */
export function stateDir(env = process.env) {
  if (env.BRIDGE_STATE_DIR?.trim()) return env.BRIDGE_STATE_DIR.trim();
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config");
  return join(base, "finance-journal");
}

/**
 * The token in <dir>/model-bridge-token, made (32 random bytes, mode 0600) when absent.
 * Returns {token, path, created}.
 */
export function loadOrCreateToken(dir) {
  const path = join(dir, "model-bridge-token");
  if (existsSync(path)) {
    chmodSync(path, 0o600);
    const token = readFileSync(path, "utf8").trim();
    if (token.length >= 32) return { token, path, created: false };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString("base64url");
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { token, path, created: true };
}

/**
 * Runs one command: resolves {code, stdout, timedOut}; never rejects for a failing tool. `model`
 * is the bridge's own allowlisted string (never the caller's), substituted for {model}.
 */
export function runCommand(argv, input, timeoutMs, model) {
  return new Promise((resolve) => {
    const args = argv.slice(1).map((a) => a.replaceAll("{model}", model ?? ""));
    let child;
    try {
      child = spawn(argv[0], args, {
        stdio: ["pipe", "pipe", "ignore"],
        env: { ...process.env, BRIDGE_MODEL: model ?? "" },
      });
    } catch {
      return resolve({ code: -1, stdout: "", timedOut: false });
    }
    let out = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      if (out.length < MAX_OUTPUT) out += d;
    });
    child.on("error", () => {
      clearTimeout(timer);
      resolve({ code: -1, stdout: "", timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: out, timedOut });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** Is the command's program runnable here? (`--version` answering at all is enough.) */
async function available(argv) {
  const r = await runCommand([argv[0], "--version"], "", 5000, "");
  return r.code !== -1 && !r.timedOut;
}

function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const fail = (res, status, message, type) => send(res, status, { error: { message, type } });

function promptOf(body) {
  const parts = (Array.isArray(body.messages) ? body.messages : []).map((m) => {
    const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
    return m.role === "system" ? `Instructions:\n${text}` : text;
  });
  const tool = body.tools?.[0]?.function;
  if (tool) {
    parts.push(
      `Answer with only a JSON object for the function "${tool.name}" matching this JSON Schema:\n${JSON.stringify(tool.parameters)}`,
    );
  }
  return parts.join("\n\n");
}

function completion(model, body, text) {
  const tool = body.tools?.[0]?.function;
  let message = { role: "assistant", content: text, refusal: null };
  let finish = "stop";
  if (tool) {
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}");
    try {
      const args = JSON.parse(text.slice(start, end + 1));
      if (start < 0 || !args || typeof args !== "object") throw new Error("not an object");
      message = {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [
          {
            id: "call_bridge",
            type: "function",
            function: { name: tool.name, arguments: JSON.stringify(args) },
          },
        ],
      };
      finish = "tool_calls";
    } catch {
      // Garbage instead of JSON: answered as text, which the Worker treats as "no tool call".
    }
  }
  return {
    id: `chatcmpl-bridge-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: finish, message }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

async function readBody(req) {
  let size = 0;
  const chunks = [];
  for await (const c of req) {
    size += c.length;
    if (size > MAX_BODY) return null;
    chunks.push(c);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  } catch {
    return undefined;
  }
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The Host header's name without its port, lower case. */
function hostName(host) {
  const h = String(host ?? "").toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0];
}

const digest = (s) => createHash("sha256").update(String(s)).digest();
/** Constant-time comparison of the presented token with ours. */
function tokenMatches(header, token) {
  const m = /^Bearer (.+)$/.exec(String(header ?? ""));
  return Boolean(m) && timingSafeEqual(digest(m[1]), digest(token));
}

/** Why a request is refused before anything else is read, or null. */
function refusal(req, config) {
  if (req.headers.origin !== undefined)
    return [403, "requests from web pages (with an Origin header) are refused", "forbidden"];
  const host = hostName(req.headers.host);
  if (!LOOPBACK.has(host) && !(config.allowedHosts ?? []).includes(host))
    return [403, "the Host is not loopback (or BRIDGE_ALLOWED_HOSTS)", "forbidden"];
  if (!tokenMatches(req.headers.authorization, config.token))
    return [401, "bridge token missing or wrong", "invalid_api_key"];
  return null;
}

/** The provider's command and the bridge's own copy of an allowlisted model, or a refusal. */
function choose(config, requested) {
  const [provider, ...rest] = String(requested ?? "").split(":");
  const wanted = rest.join(":");
  const argv = Object.hasOwn(config.commands, provider) ? config.commands[provider] : undefined;
  if (!argv)
    return {
      error: [
        404,
        `no command is configured for ${PROVIDERS.includes(provider) ? provider : "that provider"}`,
        "model_not_found",
      ],
    };
  const allowed = config.models?.[provider] ?? [];
  if (!wanted) return { provider, argv, model: allowed[0] ?? "" };
  const model = allowed.find((m) => m === wanted);
  if (model === undefined)
    return {
      error: [
        400,
        `that model is not on ${provider}'s allowlist (BRIDGE_${provider.toUpperCase()}_MODELS)`,
        "model_not_allowed",
      ],
    };
  return { provider, argv, model };
}

export function createBridge(config = configFromEnv(), log = (line) => process.stdout.write(`${line}\n`)) {
  if (!config.token) throw new Error("the model bridge needs a token (loadOrCreateToken)");
  return createServer(async (req, res) => {
    const refused = refusal(req, config);
    if (refused) return fail(res, ...refused);
    const url = new URL(req.url ?? "/", "http://bridge");
    if (req.method === "GET" && url.pathname === "/health") {
      const providers = {};
      for (const p of PROVIDERS) {
        const argv = config.commands[p];
        providers[p] = { configured: Boolean(argv), available: argv ? await available(argv) : false };
      }
      return send(res, 200, { ok: true, providers });
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      return fail(res, 404, "no such route", "not_found");
    }
    const type = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    if (type !== "application/json")
      return fail(res, 415, "the body must be application/json", "invalid_request_error");
    const body = await readBody(req);
    if (!body || typeof body !== "object" || Array.isArray(body))
      return fail(res, 400, "the body is not a JSON object", "invalid_request_error");
    const chosen = choose(config, body.model);
    if (chosen.error) return fail(res, ...chosen.error);
    const { provider, argv, model } = chosen;
    const t0 = Date.now();
    const r = await runCommand(argv, promptOf(body), config.timeoutMs, model);
    log(`${provider} exit=${r.timedOut ? "timeout" : r.code} ${Date.now() - t0}ms`);
    if (r.timedOut)
      return fail(res, 504, `${provider} did not answer within ${config.timeoutMs / 1000} s`, "timeout");
    if (r.code !== 0) return fail(res, 502, `${provider} exited with status ${r.code}`, "server_error");
    const text = r.stdout.trim();
    if (!text) return fail(res, 502, `${provider} printed nothing`, "server_error");
    return send(res, 200, completion(model ? `${provider}:${model}` : provider, body, text));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const config = configFromEnv();
  const port = Number(process.env.BRIDGE_PORT ?? 8799);
  const configured = Object.keys(config.commands);
  if (configured.length === 0) {
    process.stderr.write("model-bridge: set BRIDGE_CLI_A_CMD, BRIDGE_CLI_B_CMD or BRIDGE_CLI_C_CMD first.\n");
    process.exit(1);
  }
  if (config.token && config.token.length < 32) {
    process.stderr.write(
      "model-bridge: BRIDGE_TOKEN must be at least 32 characters (or unset it: one is made for you).\n",
    );
    process.exit(1);
  }
  if (!config.token) {
    const t = loadOrCreateToken(stateDir());
    config.token = t.token;
    if (t.created) {
      process.stdout.write(
        `model-bridge: made a new token and saved it in ${t.path} (readable only by you):\n\n  ${t.token}\n\n` +
          "Give it to the Worker as MODEL_BRIDGE_TOKEN: locally add the lines\n" +
          `  MODEL_BRIDGE_URL=http://127.0.0.1:${port}\n  MODEL_BRIDGE_TOKEN=${t.token}\n` +
          "to .dev.vars; deployed, run `npx wrangler secret put MODEL_BRIDGE_TOKEN` and paste it (and point\n" +
          "MODEL_BRIDGE_URL at a tunnel to this port: see the README).\n" +
          "It is printed only this once; it stays in that file.\n",
      );
    } else {
      process.stdout.write(`model-bridge: token in ${t.path} (the Worker's MODEL_BRIDGE_TOKEN)\n`);
    }
  }
  // Loopback only: a tunnel (see the README) is the way in from a deployed Worker.
  createBridge(config).listen(port, "127.0.0.1", () => {
    process.stdout.write(`model-bridge on http://127.0.0.1:${port} for ${configured.join(", ")}\n`);
  });
}
