/**
 * A fake OpenAI-compatible model server (Node side; started from test/setup/global-model.ts).
 * Speaks POST /v1/chat/completions (forced tool calls) and POST /v1/embeddings. Each test scripts
 * its own behaviour queue under its own API key (the Bearer token), so test files running in
 * parallel never share a queue:
 *   POST /__script {key, queue: Behaviour[], embeddings?: {text: number[]}}  (replaces the script)
 *   GET  /__calls?key=…  → the requests this key made, in order
 *   ANY  /__sink/<key>/… → recorded under <key> (notification providers); answers the next
 *        scripted {kind:"status"} or 200
 * With an empty queue the server answers sensibly (see smartAnswer).
 */
// Node built-ins are loaded dynamically and typed locally: the project's types are workerd's.
interface IncomingMessage extends AsyncIterable<Uint8Array> {
  url?: string;
  method?: string;
  headers: Record<string, string | undefined>;
}
interface ServerResponse {
  destroyed: boolean;
  writeHead(status: number, headers: Record<string, string>): void;
  end(body: string): void;
}
interface Server {
  listen(port: number, host: string, cb: () => void): void;
  address(): { port: number };
  close(cb: () => void): void;
  closeAllConnections(): void;
}
type NodeHttp = { createServer(h: (req: IncomingMessage, res: ServerResponse) => void): Server };
const nodeModule = <T>(name: string): Promise<T> => import(/* @vite-ignore */ name);

export type Behaviour =
  | { kind: "tool"; arguments: Record<string, unknown> | string }
  | { kind: "refusal" }
  | { kind: "no_tool_call"; content?: string }
  | { kind: "malformed" }
  | { kind: "empty_choices" }
  | { kind: "status"; status: number }
  | { kind: "slow"; ms: number; after?: Behaviour };

interface Script {
  queue: Behaviour[];
  embeddings: Record<string, number[]>;
  calls: { path: string; body: any }[];
}

const DIMS = 64;

/** Deterministic character-trigram embedding: similar strings get similar vectors. */
export function trigramVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  const s = `  ${text.toLowerCase()}  `;
  for (let i = 0; i + 3 <= s.length; i++) {
    let h = 2166136261;
    for (const ch of s.slice(i, i + 3)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % DIMS]! += 1;
  }
  return v;
}

function smartAnswer(body: any): Record<string, unknown> {
  const tool = body?.tool_choice?.function?.name ?? body?.tools?.[0]?.function?.name;
  const user = String(body?.messages?.find((m: any) => m.role === "user")?.content ?? "");
  if (tool === "categorize_transaction") {
    const options: string[] = body.tools[0].function.parameters.properties.category.enum ?? [];
    return { category: options.includes("Groceries") ? "Groceries" : (options[0] ?? "Miscellaneous") };
  }
  if (tool === "detect_if_transaction_alert") return { is_transaction_alert: /\$\s?\d/.test(user) };
  if (tool === "extract_transaction") {
    const m = /\$\s?(\d[\d,]*(?:\.\d{2})?)/.exec(user);
    return { amount: m ? Number(m[1]!.replace(/,/g, "")) : 1, company: null, transaction_type: "purchase" };
  }
  return {};
}

function completion(body: any, b: Behaviour | undefined): { status: number; json: unknown } {
  const base = { id: "chatcmpl-fake", object: "chat.completion", created: 0, model: body?.model ?? "fake" };
  const toolName = body?.tool_choice?.function?.name ?? "unknown";
  const toolMessage = (args: string) => ({
    ...base,
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: toolName, arguments: args } }],
        },
      },
    ],
  });
  if (!b) {
    if (!body?.tools) return { status: 200, json: textMessage(base, "A fake summary.") };
    return { status: 200, json: toolMessage(JSON.stringify(smartAnswer(body))) };
  }
  switch (b.kind) {
    case "tool":
      return {
        status: 200,
        json: toolMessage(typeof b.arguments === "string" ? b.arguments : JSON.stringify(b.arguments)),
      };
    case "refusal":
      return {
        status: 200,
        json: {
          ...base,
          choices: [
            {
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: null, refusal: "I can't help with that." },
            },
          ],
        },
      };
    case "no_tool_call":
      return { status: 200, json: textMessage(base, b.content ?? "I think it is groceries.") };
    case "malformed":
      return { status: 200, json: toolMessage("{not json") };
    case "empty_choices":
      return { status: 200, json: { ...base, choices: [] } };
    case "status":
      return { status: b.status, json: { error: { message: `scripted ${b.status}`, type: "server_error" } } };
    default:
      return { status: 500, json: { error: { message: "bad script" } } };
  }
}

function textMessage(base: object, content: string) {
  return {
    ...base,
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, refusal: null } }],
  };
}

const RAW = Symbol("raw");
const rawText = (body: any): string => body?.[RAW] ?? "";

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Uint8Array[] = [];
  for await (const c of req) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  const text = new TextDecoder().decode(all);
  let parsed: any = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = {};
  }
  if (parsed && typeof parsed === "object") parsed[RAW] = text;
  return parsed;
}

function send(res: ServerResponse, status: number, json: unknown) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(json));
}

export async function startFakeModel(): Promise<{ url: string; close: () => Promise<void> }> {
  const scripts = new Map<string, Script>();
  const scriptOf = (key: string) => {
    let s = scripts.get(key);
    if (!s) {
      s = { queue: [], embeddings: {}, calls: [] };
      scripts.set(key, s);
    }
    return s;
  };
  const { createServer } = await nodeModule<NodeHttp>("node:http");
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readJson(req);
    if (url.pathname === "/__script" && req.method === "POST") {
      const s = scriptOf(String(body.key));
      s.queue = Array.isArray(body.queue) ? body.queue : [];
      s.embeddings = body.embeddings ?? {};
      s.calls = [];
      return send(res, 200, { ok: true });
    }
    if (url.pathname === "/__calls")
      return send(res, 200, { calls: scriptOf(url.searchParams.get("key") ?? "").calls });
    if (url.pathname.startsWith("/__sink/")) {
      const sinkKey = url.pathname.split("/")[2] ?? "";
      const sink = scriptOf(sinkKey);
      sink.calls.push({ path: url.pathname, body: { headers: req.headers, text: rawText(body) } });
      const head = sink.queue.shift();
      return send(res, head?.kind === "status" ? head.status : 200, { ok: true });
    }
    const key = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const s = scriptOf(key);
    s.calls.push({ path: url.pathname, body });
    if (url.pathname.endsWith("/embeddings")) {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [String(body.input)];
      const head = s.queue[0];
      if (head?.kind === "status") {
        s.queue.shift();
        return send(res, head.status, { error: { message: `scripted ${head.status}` } });
      }
      const data = inputs.map((t, index) => ({
        object: "embedding",
        index,
        embedding: s.embeddings[t] ?? trigramVector(t),
      }));
      return send(res, 200, {
        object: "list",
        data,
        model: body.model,
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    }
    if (url.pathname.endsWith("/chat/completions")) {
      let b = s.queue.shift();
      if (b?.kind === "slow") {
        await new Promise((r) => setTimeout(r, b && b.kind === "slow" ? b.ms : 0));
        b = b.after;
      }
      const out = completion(body, b);
      return send(res, out.status, out.json);
    }
    return send(res, 404, { error: { message: "no such route" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
