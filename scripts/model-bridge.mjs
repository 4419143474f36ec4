// npm run model-bridge: the local companion for the command-line model tools (cli_a, cli_b, cli_c).
// A Worker cannot start processes, so this small server on loopback speaks the chat-completions
// protocol and, for each request, runs the command configured for the provider named in `model`
// ("cli_a" or "cli_a:<model>"): the prompt goes to the command's stdin, its stdout is the answer.
//
//   BRIDGE_CLI_A_CMD='my-tool --model {model} -'   (likewise BRIDGE_CLI_B_CMD, BRIDGE_CLI_C_CMD)
//   BRIDGE_PORT=8799  BRIDGE_TOKEN=<shared secret, optional>  BRIDGE_TIMEOUT_SECONDS=170
//
// The Worker reaches it at MODEL_BRIDGE_URL with MODEL_BRIDGE_TOKEN: under `wrangler dev` directly
// (MODEL_BRIDGE_URL=http://127.0.0.1:8799 in .dev.vars); deployed, through a tunnel to this machine
// (for example `cloudflared tunnel --url http://127.0.0.1:8799`, then `wrangler secret put
// MODEL_BRIDGE_URL` with the tunnel's https address, and set BRIDGE_TOKEN here and
// MODEL_BRIDGE_TOKEN there to the same long random value: the tunnel is public). GET /health says
// which tools are set up and runnable. The prompt never goes on a command line (ps would show it) and nothing is logged
// but the provider, the exit status and the duration.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
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

export function configFromEnv(env = process.env) {
  const commands = {};
  for (const p of PROVIDERS) {
    const line = env[`BRIDGE_${p.toUpperCase()}_CMD`]?.trim();
    if (line) commands[p] = splitCommand(line);
  }
  const seconds = Number(env.BRIDGE_TIMEOUT_SECONDS);
  return {
    commands,
    token: env.BRIDGE_TOKEN?.trim() || null,
    timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 170) * 1000,
  };
}

/** Runs one command: resolves {code, stdout, timedOut}; never rejects for a failing tool. */
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

export function createBridge(config = configFromEnv(), log = (line) => process.stdout.write(`${line}\n`)) {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://bridge");
    if (config.token && req.headers.authorization !== `Bearer ${config.token}`) {
      return fail(res, 401, "bridge token missing or wrong", "invalid_api_key");
    }
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
    const body = await readBody(req);
    if (!body || typeof body !== "object")
      return fail(res, 400, "the body is not JSON", "invalid_request_error");
    const [provider, ...rest] = String(body.model ?? "").split(":");
    const model = rest.join(":") || null;
    const argv = config.commands[provider];
    if (!argv)
      return fail(res, 404, `no command is configured for ${provider || "(none)"}`, "model_not_found");
    const t0 = Date.now();
    const r = await runCommand(argv, promptOf(body), config.timeoutMs, model);
    log(`${provider} exit=${r.timedOut ? "timeout" : r.code} ${Date.now() - t0}ms`);
    if (r.timedOut)
      return fail(res, 504, `${provider} did not answer within ${config.timeoutMs / 1000} s`, "timeout");
    if (r.code !== 0) return fail(res, 502, `${provider} exited with status ${r.code}`, "server_error");
    const text = r.stdout.trim();
    if (!text) return fail(res, 502, `${provider} printed nothing`, "server_error");
    return send(res, 200, completion(body.model, body, text));
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
  // Loopback only: a tunnel (see the README) is the way in from a deployed Worker.
  createBridge(config).listen(port, "127.0.0.1", () => {
    process.stdout.write(`model-bridge on http://127.0.0.1:${port} for ${configured.join(", ")}\n`);
  });
}
