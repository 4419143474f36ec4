/**
 * Cost bounds of a statement file that hold for every encoding of it, checked before the parse:
 * rows are counted on any line ending (CR, LF or CRLF: a CR-only QIF is as many lines
 * as an LF one), and an XML file (CAMT) is tokenized once, linearly, and must be well-formed enough
 * for the regex readers to stay linear too: every `<` closes with `>` before the next `<`, and
 * every element closes in order (no `<Ntry >` left open for a lazy match to scan to the end of the
 * file from each one). PDFs go through src/lib/pdf-guard.ts.
 */
import { validationError } from "../../lib/errors";

/** Elements nest this deep at most in a CAMT file (a real one uses about ten levels). */
export const MAX_XML_DEPTH = 64;

/** Line breaks in the bytes, a CRLF counted once. */
export function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x0a) n++;
    else if (c === 0x0d) {
      n++;
      if (bytes[i + 1] === 0x0a) i++;
    }
  }
  return n;
}

/** Lines whose first non-blank character is `mark` (QIF's `^` record ends), on any line ending. */
export function linesStartingWith(text: string, mark: string): number {
  let n = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n" || c === "\r") lineStart = true;
    else if (lineStart && c !== " " && c !== "\t") {
      if (text.startsWith(mark, i)) n++;
      lineStart = false;
    }
  }
  return n;
}

/** Opening tags of an element (any namespace prefix, with or without attributes or spaces). */
export function elementCount(text: string, name: string): number {
  const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}[\\s/>]`, "g");
  let n = 0;
  while (re.exec(text)) n++;
  return n;
}

const notWellFormed = (why: string) => {
  const msg = `This XML file is not well-formed (${why}); export the statement again from the bank`;
  return validationError([{ loc: ["body", "file"], msg, type: "value_error" }], msg);
};

/**
 * One linear pass over an XML file: tags close with `>` before any other `<`, elements close in
 * the order they opened, no deeper than MAX_XML_DEPTH. Comments, CDATA, processing instructions and
 * the doctype are skipped whole. Throws a 422 in words otherwise.
 */
export function checkXml(text: string): void {
  const open: string[] = [];
  let at = text.indexOf("<");
  while (at >= 0) {
    if (text.startsWith("<!--", at)) {
      const end = text.indexOf("-->", at + 4);
      if (end < 0) throw notWellFormed("a comment never ends");
      at = text.indexOf("<", end + 3);
      continue;
    }
    if (text.startsWith("<![CDATA[", at)) {
      const end = text.indexOf("]]>", at + 9);
      if (end < 0) throw notWellFormed("a CDATA section never ends");
      at = text.indexOf("<", end + 3);
      continue;
    }
    const close = text.indexOf(">", at + 1);
    const next = text.indexOf("<", at + 1);
    if (close < 0 || (next >= 0 && next < close)) throw notWellFormed("a tag is never closed with >");
    const tag = text.slice(at + 1, close);
    if (tag.startsWith("?") || tag.startsWith("!")) {
      // <?xml ...?>, <!DOCTYPE ...>: no element.
    } else if (tag.startsWith("/")) {
      const name = tag.slice(1).trim();
      if (open.pop() !== name)
        throw notWellFormed(`</${name.slice(0, 40)}> closes an element that is not open`);
    } else if (!tag.endsWith("/")) {
      const name = /^[^\s/>]+/.exec(tag)?.[0] ?? "";
      if (!name) throw notWellFormed("a tag has no name");
      open.push(name);
      if (open.length > MAX_XML_DEPTH)
        throw notWellFormed(`elements nest more than ${MAX_XML_DEPTH} levels deep`);
    }
    at = next;
  }
  if (open.length > 0) throw notWellFormed(`<${open.at(-1)!.slice(0, 40)}> is never closed`);
}
