/**
 * The published contract, checked on every call: a 2xx answer of an operation must be one of the
 * statuses it declares, with a declared media type, and a JSON body must parse with the zod
 * response schema chanfana publishes for it (the same object openapi.json is generated from).
 */
import type { createApp } from "../../src/app";

interface ZodLike {
  safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}
interface Declared {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  key: string;
  re: RegExp;
  params: number;
  method: string;
  responses: Record<string, Declared>;
}

let operations: Operation[] | null = null;

function index(app: ReturnType<typeof createApp>): Operation[] {
  if (operations) return operations;
  const defs = app.registry.definitions as unknown as {
    type?: string;
    route?: { method: string; path: string; responses?: Record<string, Declared> };
  }[];
  const ops: Operation[] = [];
  for (const d of defs) {
    if (d.type !== "route" || !d.route) continue;
    const path = d.route.path.replaceAll(/:(\w+)/g, "{$1}").replace(/(.)\/+$/, "$1");
    const params = (path.match(/\{\w+\}/g) ?? []).length;
    const source = path
      .split(/\{\w+\}/)
      .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join("[^/]+");
    ops.push({
      key: `${d.route.method.toUpperCase()} ${path}`,
      re: new RegExp(`^${source}/?$`),
      params,
      method: d.route.method.toUpperCase(),
      responses: d.route.responses ?? {},
    });
  }
  // A literal path wins over a templated one (`/transactions/search` before `/transactions/{tx_id}`).
  ops.sort((a, b) => a.params - b.params);
  operations = ops;
  return ops;
}

const isZod = (s: unknown): s is ZodLike => typeof (s as ZodLike | undefined)?.safeParse === "function";

/** Throws (failing the calling test) when a 2xx answer breaks its operation's declared response. */
export function checkResponse(
  app: ReturnType<typeof createApp>,
  method: string,
  url: URL,
  res: { status: number; headers: Headers; text: string },
): void {
  if (res.status < 200 || res.status > 299 || !url.pathname.startsWith("/api/")) return;
  // A CORS preflight is answered by the CORS layer before any operation (no OpenAPI operation).
  if (method.toUpperCase() === "OPTIONS") return;
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const op = index(app).find((o) => o.method === m && o.re.test(url.pathname));
  const where = `${method} ${url.pathname} → ${res.status}`;
  if (!op) throw new Error(`response contract: ${where} answers 2xx but no operation declares it`);
  const declared = op.responses[String(res.status)] ?? op.responses[`${String(res.status)[0]}XX`];
  if (!declared) {
    const statuses = Object.keys(op.responses).filter((s) => s.startsWith("2"));
    throw new Error(`response contract: ${where}: ${op.key} declares only ${statuses.join(", ")}`);
  }
  const types = Object.keys(declared.content ?? {});
  if (types.length === 0 || method.toUpperCase() === "HEAD") return;
  const got = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const media = types.find(
    (t) => t.toLowerCase() === got || (t.endsWith("/*") && got.startsWith(t.slice(0, -1))),
  );
  if (!media) {
    throw new Error(`response contract: ${where}: content-type "${got}" is not one of ${types.join(", ")}`);
  }
  const schema = declared.content?.[media]?.schema;
  if (!got.endsWith("json") || !isZod(schema)) return;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`response contract: ${where}: the body is not JSON: ${res.text.slice(0, 200)}`);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) {
    // A field the schema does not publish is a break too (zod objects drop unknown keys silently).
    const extra = undeclared(body, (parsed as { data?: unknown }).data, "");
    if (extra.length === 0) return;
    throw new Error(
      `response contract: ${where} answers fields ${op.key}'s response schema does not declare: ${extra.slice(0, 8).join(", ")}`,
    );
  }
  const issues = (parsed.error?.issues ?? [])
    .slice(0, 8)
    .map((i) => `  ${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
    .join("\n");
  throw new Error(
    `response contract: ${where} breaks ${op.key}'s response schema:\n${issues}\nbody: ${res.text.slice(0, 600)}`,
  );
}

/** Paths of keys present in `sent` that the parsed value dropped (unknown to the schema). */
function undeclared(sent: unknown, kept: unknown, at: string): string[] {
  if (Array.isArray(sent) && Array.isArray(kept))
    return sent.flatMap((v, i) => undeclared(v, kept[i], `${at}[${i}]`)).slice(0, 8);
  if (!sent || typeof sent !== "object" || !kept || typeof kept !== "object" || Array.isArray(kept))
    return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(sent)) {
    const path = at ? `${at}.${k}` : k;
    if (!(k in kept)) out.push(path);
    else out.push(...undeclared(v, (kept as Record<string, unknown>)[k], path));
  }
  return out;
}
