// What the architecture tests read: src/ as text, comments stripped, relative imports resolved.

/** src/ as text, keyed "src/…" (Vite reads the files; no Node types needed). */
export function sourceTree(): Record<string, string> {
  const raw = import.meta.glob<string>("/src/**/*.ts", { query: "?raw", import: "default", eager: true });
  return Object.fromEntries(Object.entries(raw).map(([path, text]) => [path.replace(/^\//, ""), text]));
}

/** Comments removed, so an example import or query in a comment is not one. */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[\s;])\/\/.*$/gm, "$1");
}

/** The src file a relative specifier names (x.ts, x/index.ts, x.js written for x.ts), or null. */
export function resolveRelative(from: string, spec: string, files: ReadonlySet<string>): string | null {
  const parts = from.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== "." && seg !== "") parts.push(seg);
  }
  const base = parts.join("/");
  const candidates = [base, `${base}.ts`, base.replace(/\.m?js$/, ".ts"), `${base}/index.ts`];
  return candidates.find((c) => files.has(c)) ?? null;
}
