// A small Markdown renderer that builds React elements (never HTML strings): headings, paragraphs,
// lists, fenced code, **bold**, *italic*, `code`. Anything else shows as the text it is, so model
// output can never inject markup. Figures listed in `flagged` are wrapped in <mark>.
import type { ReactNode } from "react";

type Block =
  | { kind: "h"; level: number; text: string }
  | { kind: "p"; text: string }
  | { kind: "ul" | "ol"; items: string[] }
  | { kind: "code"; text: string };

export function parseBlocks(md: string): Block[] {
  const lines = md.replace(/\r\n?/g, "\n").split("\n");
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: "p", text: para.join(" ") });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^(```|~~~)/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith(fence[1]!); i++) body.push(lines[i]!);
      out.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    const li = /^\s*[-*+]\s+(.*)$/.exec(line);
    const oli = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (h) {
      flush();
      out.push({ kind: "h", level: h[1]!.length, text: h[2]! });
    } else if (li || oli) {
      flush();
      const kind = li ? "ul" : "ol";
      const last = out[out.length - 1];
      const item = (li ?? oli)![1]!;
      if (last && last.kind === kind) last.items.push(item);
      else out.push({ kind, items: [item] });
    } else if (line.trim() === "") flush();
    else para.push(line.trim());
  }
  flush();
  return out;
}

const INLINE = /(\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_|`[^`]+`)/;

function marked(text: string, flagged: readonly string[], key: string): ReactNode[] {
  if (!flagged.length) return [text];
  const escaped = flagged.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(${escaped.join("|")})`, "g");
  return text.split(re).map((part, i) =>
    flagged.includes(part) ? (
      <mark
        // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text, never reordered
        key={`${key}m${i}`}
        className="figure-flag"
        title="This figure could not be traced to the context"
      >
        {part}
      </mark>
    ) : (
      part
    ),
  );
}

function inline(text: string, flagged: readonly string[], key: string): ReactNode[] {
  return text.split(INLINE).flatMap((part, i): ReactNode[] => {
    const k = `${key}.${i}`;
    if (/^\*\*.+\*\*$|^__.+__$/.test(part))
      return [<strong key={k}>{marked(part.slice(2, -2), flagged, k)}</strong>];
    if (/^`.+`$/.test(part)) return [<code key={k}>{part.slice(1, -1)}</code>];
    if (/^\*.+\*$|^_.+_$/.test(part)) return [<em key={k}>{marked(part.slice(1, -1), flagged, k)}</em>];
    return marked(part, flagged, k);
  });
}

export function Markdown({ source, flagged = [] }: { source: string; flagged?: readonly string[] }) {
  return (
    <div className="markdown">
      {parseBlocks(source).map((b, i) => {
        const k = String(i);
        switch (b.kind) {
          case "h": {
            const level = Math.min(6, b.level + 1); // the page owns h1
            const Tag = `h${level}` as "h2";
            return <Tag key={k}>{inline(b.text, flagged, k)}</Tag>;
          }
          case "p":
            return <p key={k}>{inline(b.text, flagged, k)}</p>;
          case "code":
            return (
              <pre key={k}>
                <code>{b.text}</code>
              </pre>
            );
          default: {
            const List = b.kind;
            return (
              <List key={k}>
                {b.items.map((it, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: items of a fixed text, never reordered
                  <li key={`${k}.${j}`}>{inline(it, flagged, `${k}.${j}`)}</li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}
