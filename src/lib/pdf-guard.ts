/**
 * THE cost check every PDF passes before pdf.js (unpdf) reads it: statements, the layout marking
 * and proposal, and receipts. pdf.js has no limits of its own: a 460 KB content-stream
 * bomb inflates to gigabytes, a 2 KB page tree whose kids repeat one node claims millions of
 * pages, and both run synchronously, blocking the isolate. This pass is linear in the file and
 * in the inflated bytes it allows:
 * - every stream pdf.js may decode for text (all but images) is inflated with fflate's streaming
 *   inflater, stopped at MAX_STREAM_BYTES (and MAX_INFLATED_BYTES for the file);
 * - operators are counted in content streams; a page's cost is its contents' operators plus each
 *   `Do` it paints charged at the largest form's count, at most MAX_OPS_PER_PAGE (and
 *   MAX_OPS_PER_FILE over all pages, a page listed twice counted twice);
 * - the page tree is walked from the catalog (objects in object streams too): a cycle, a tree
 *   deeper than MAX_TREE_DEPTH or more leaves than the caller's page limit refuses the file;
 * - filters whose output cannot be bounded here (LZW, run-length, chained) refuse non-image streams.
 * An encrypted file's streams are checked only where they inflate as written (its page tree always).
 * A refusal is a PdfRefused whose message says why in words.
 */
import { Decompress } from "fflate";
import { TooLarge } from "./errors";

const MAX_STREAM_BYTES = 8 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
const MAX_OPS_PER_PAGE = 250_000;
const MAX_OPS_PER_FILE = 2_000_000;
const MAX_TREE_DEPTH = 32;
const MAX_OBJECTS = 500_000;

/** A 413 in words wherever it is not caught (statements, layouts); receipts store it as the failure. */
export class PdfRefused extends TooLarge {
  constructor(
    message: string,
    /** The page count, when that is what was refused. */
    readonly pages: number | null = null,
  ) {
    super(message, null, "PDF_TOO_COSTLY");
  }
}

const IMAGE_FILTERS = new Set(["DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF"]);
const FLATE = new Set(["FlateDecode", "Fl"]);
const ARMOUR = new Set(["ASCIIHexDecode", "AHx", "ASCII85Decode", "A85"]);
const fmt = (n: number) => n.toLocaleString("en-US");
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

const tooManyOps = () =>
  new PdfRefused(
    `A page of this PDF draws more than ${fmt(MAX_OPS_PER_PAGE)} operations; no statement or receipt page does`,
  );

interface Obj {
  dict: string;
  /** Operators counted in its (inflated) stream, for content-like streams. */
  ops?: number;
  /** `Do` operators among them. */
  paints?: number;
}

/** Counts operator tokens (and `Do`s) in content-stream bytes: a letter run after a delimiter. */
class OpCounter {
  ops = 0;
  paints = 0;
  private prev = 32;
  private inString = 0;
  private run = 0;
  private first = 0;

  push(b: Uint8Array) {
    for (let i = 0; i < b.length; i++) {
      const c = b[i]!;
      if (this.inString > 0) {
        if (c === 0x5c)
          i++; // an escaped character
        else if (c === 0x28) this.inString++;
        else if (c === 0x29) this.inString--;
        this.prev = 32;
        continue;
      }
      const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x27 || c === 0x22;
      if (letter) {
        if (this.run === 0) {
          const p = this.prev;
          // Not a name (/Foo) and not the tail of a number or another token.
          this.run = p === 0x2f ? -1 : isDelimiter(p) ? 1 : -1;
          this.first = c;
          if (this.run === 1) this.ops++;
        } else if (this.run > 0) {
          this.run++;
          if (this.run === 2 && this.first === 0x44 && c === 0x6f) this.paints++;
          if (this.run === 3 && this.first === 0x44) this.paints--;
        }
      } else {
        this.run = 0;
        if (c === 0x28) this.inString = 1;
      }
      this.prev = c;
    }
  }
}

const isDelimiter = (c: number) =>
  c === 32 ||
  c === 10 ||
  c === 13 ||
  c === 9 ||
  c === 12 ||
  c === 0 ||
  c === 0x5d ||
  c === 0x29 ||
  c === 0x3e;

/** The names of a dictionary's /Filter (one name or an array). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return [];
  return [...m[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((x) => x[1]!);
}

/** Every `N G R` reference in a value. */
const refs = (value: string) => [...value.matchAll(/(\d+)\s+\d+\s+R\b/g)].map((m) => Number(m[1]));

/** The value of key `/key` in a dictionary's text: a reference, an array or a name (the first one). */
function entry(dict: string, key: string): string | null {
  const m = new RegExp(`/${key}\\s*(\\[[^\\]]*\\]|\\d+\\s+\\d+\\s+R|/[A-Za-z0-9]+)`).exec(dict);
  return m ? m[1]! : null;
}

/**
 * Inflates `data` with a cap; returns the bytes (when `keep`) and feeds `count`. Stops without
 * error at a corrupt or truncated stream (pdf.js reads what inflates). Throws PdfRefused over a cap.
 */
function inflateCapped(
  data: Uint8Array,
  budget: { left: number },
  keep: boolean,
  count?: OpCounter,
): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const d = new Decompress((chunk) => {
    size += chunk.length;
    budget.left -= chunk.length;
    if (size > MAX_STREAM_BYTES) {
      throw new PdfRefused(
        `A stream of this PDF inflates to more than ${mb(MAX_STREAM_BYTES)}; no statement or receipt needs that`,
      );
    }
    if (budget.left < 0) {
      throw new PdfRefused(
        `This PDF inflates to more than ${mb(MAX_INFLATED_BYTES)}; no statement or receipt needs that`,
      );
    }
    if (count) {
      count.push(chunk);
      if (count.ops > MAX_OPS_PER_PAGE) throw tooManyOps();
    }
    if (keep) chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += 4096) {
      d.push(data.subarray(at, Math.min(data.length, at + 4096)), at + 4096 >= data.length);
    }
  } catch (err) {
    if (err instanceof PdfRefused) throw err;
    // Corrupt or encrypted data: what inflated so far is what was counted.
  }
  if (!keep) return null;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The objects an object stream holds (`/N` pairs of number and offset, then the objects). */
function objectStreamObjects(body: Uint8Array, dict: string, into: Map<number, Obj>) {
  const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? -1);
  if (first < 0 || first > body.length) return;
  const text = latin1(body);
  const nums = text.slice(0, first).trim().split(/\s+/).map(Number);
  for (let i = 0; i + 1 < nums.length; i += 2) {
    const start = first + nums[i + 1]!;
    const end = i + 3 < nums.length ? first + nums[i + 3]! : text.length;
    if (!into.has(nums[i]!)) into.set(nums[i]!, { dict: text.slice(start, Math.max(start, end)) });
  }
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}

/**
 * Refuses (PdfRefused, in words) a PDF whose reading would cost more than any statement or receipt:
 * see the module comment. `maxPages`: the caller's page limit.
 */
export function checkPdf(bytes: Uint8Array, maxPages: number): void {
  const text = latin1(bytes);
  const objects = new Map<number, Obj>();
  const budget = { left: MAX_INFLATED_BYTES };
  const forms: number[] = [];
  const objStms: { body: Uint8Array; dict: string }[] = [];
  const head = /(\d+)\s+(\d+)\s+obj\b/g;
  // Where the next marker is, from a position on: each search resumes where the last one
  // stopped, so a file of objects with no endobj (or no stream) costs one scan, not one per object.
  const found = new Map<string, number>();
  const nextOf = (word: string, from: number): number => {
    let at = found.get(word) ?? -1;
    while (at < from || (word === "stream" && text.slice(at - 3, at) === "end")) {
      at = text.indexOf(word, Math.max(from, at + 1));
      if (at < 0) at = Number.POSITIVE_INFINITY;
    }
    found.set(word, at);
    return at;
  };
  const nextHead = /\d+\s+\d+\s+obj\b/g;
  let headAt = -1;
  const nextHeader = (from: number): number => {
    if (headAt >= from) return headAt;
    nextHead.lastIndex = from;
    const m = nextHead.exec(text);
    headAt = m ? m.index : Number.POSITIVE_INFINITY;
    return headAt;
  };
  let count = 0;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    if (++count > MAX_OBJECTS) throw new PdfRefused(`This PDF holds more than ${fmt(MAX_OBJECTS)} objects`);
    const num = Number(m[1]);
    const bodyStart = m.index + m[0].length;
    const end = Math.min(nextOf("endobj", bodyStart), nextHeader(bodyStart), text.length);
    const streamAt = nextOf("stream", bodyStart);
    const hasStream = streamAt < end;
    const dict = text.slice(bodyStart, hasStream ? streamAt : end);
    const obj: Obj = { dict };
    objects.set(num, obj);
    head.lastIndex = bodyStart;
    if (!hasStream) continue;
    let dataStart = streamAt + 6;
    if (text.charCodeAt(dataStart) === 13) dataStart++;
    if (text.charCodeAt(dataStart) === 10) dataStart++;
    const dataEnd = Math.min(nextOf("endstream", dataStart), text.length);
    head.lastIndex = dataEnd;
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue;
    const filters = filtersOf(dict);
    if (filters.some((f) => IMAGE_FILTERS.has(f))) continue;
    const data = bytes.subarray(dataStart, dataEnd);
    const isObjStm = /\/Type\s*\/ObjStm\b/.test(dict);
    const isFont = /\/Length[123]\b|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/.test(dict);
    const content = !isObjStm && !isFont && !/\/Type\s*\/(?:XRef|Metadata|EmbeddedFile)\b/.test(dict);
    const counter = content ? new OpCounter() : undefined;
    const rest = filters.filter((f) => !ARMOUR.has(f));
    if (rest.length === 0) {
      budget.left -= data.length;
      counter?.push(data);
      if (isObjStm) objStms.push({ body: data, dict });
    } else if (rest.length === 1 && FLATE.has(rest[0]!) && filters.length === 1) {
      const out = inflateCapped(data, budget, isObjStm, counter);
      if (out) objStms.push({ body: out, dict });
    } else {
      throw new PdfRefused(
        `This PDF compresses its content with ${filters.join(" + ")}, which cannot be checked before reading; save it again as a standard PDF`,
      );
    }
    if (counter) {
      obj.ops = counter.ops;
      obj.paints = counter.paints;
      if (counter.ops > MAX_OPS_PER_PAGE) throw tooManyOps();
      if (/\/Subtype\s*\/Form\b/.test(dict)) forms.push(num);
    }
  }
  for (const s of objStms) objectStreamObjects(s.body, s.dict, objects);
  checkPages(objects, forms, maxPages, text);
}

/** The page tree from the catalog: cycles, depth, leaves (a shared node counted each time) and cost. */
function checkPages(objects: Map<number, Obj>, forms: number[], maxPages: number, text: string) {
  const formOps = Math.max(0, ...forms.map((n) => objects.get(n)?.ops ?? 0));
  const catalog = [...objects.values()].find((o) => /\/Type\s*\/Catalog\b/.test(o.dict));
  const rootRef = catalog
    ? entry(catalog.dict, "Pages")
    : (/\/Root\s+(\d+)\s+\d+\s+R/.exec(text)?.[0] ?? null);
  const root = rootRef ? refs(rootRef)[0] : undefined;
  if (root === undefined) return;
  const memo = new Map<number, { pages: number; ops: number }>();
  const onPath = new Set<number>();
  const walk = (num: number, depth: number): { pages: number; ops: number } => {
    const known = memo.get(num);
    if (known) return known;
    if (onPath.has(num))
      throw new PdfRefused("This PDF's page tree loops back on itself (a damaged or hostile file)");
    if (depth > MAX_TREE_DEPTH)
      throw new PdfRefused(`This PDF's page tree is more than ${MAX_TREE_DEPTH} levels deep`);
    const obj = objects.get(num);
    let out = { pages: 0, ops: 0 };
    if (obj) {
      const kids = entry(obj.dict, "Kids");
      if (kids && !/\/Type\s*\/Page\b(?!s)/.test(obj.dict)) {
        onPath.add(num);
        for (const kid of refs(kids)) {
          const sub = walk(kid, depth + 1);
          out = { pages: out.pages + sub.pages, ops: out.ops + sub.ops };
          if (out.pages > maxPages) {
            throw new PdfRefused(
              `This PDF's page tree holds more than ${fmt(maxPages)} pages; it is read up to ${fmt(maxPages)} pages (split the file)`,
              out.pages,
            );
          }
          if (out.ops > MAX_OPS_PER_FILE) {
            throw new PdfRefused(
              `This PDF draws more than ${fmt(MAX_OPS_PER_FILE)} operations over its pages`,
            );
          }
        }
        onPath.delete(num);
      } else {
        const contents = entry(obj.dict, "Contents");
        let ops = 0;
        let paints = 0;
        for (const c of contents ? refs(contents) : []) {
          ops += objects.get(c)?.ops ?? 0;
          paints += objects.get(c)?.paints ?? 0;
        }
        const cost = ops + paints * formOps;
        if (cost > MAX_OPS_PER_PAGE) throw tooManyOps();
        out = { pages: 1, ops: cost };
      }
    }
    memo.set(num, out);
    return out;
  };
  walk(root, 0);
}
