/**
 * Statement file bytes → text, the encoding taken from the bytes: a BOM (UTF-8, UTF-16 LE/BE);
 * UTF-16 without a BOM (zero bytes at every other position); strict UTF-8; otherwise a single-byte
 * code page — Windows-1250 (Central Europe) when its letters explain the high bytes better than
 * Windows-1252 (Western Europe), else 1252 (Latin-1's superset). `declared` (an OFX or XML header's
 * charset) is tried first and kept only when the bytes decode under it. Pure.
 */

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1250" | "windows-1252";

/** UTF-16 without a BOM: most odd (LE) or even (BE) bytes of the first 2 KB are zero. */
function utf16Without(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length - (bytes.length % 2), 2048);
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.4 && evenZero < pairs * 0.1) return "utf-16le";
  if (evenZero > pairs * 0.4 && oddZero < pairs * 0.1) return "utf-16be";
  return null;
}

// Letters each code page prints at bytes the other reads differently (lowercase and uppercase).
const CENTRAL = /[ąćęłńśźżčďěňřšťůžőűĺľŕăţșțĄĆĘŁŃŚŹŻČĎĚŇŘŠŤŮŽŐŰĹĽŔĂŢȘȚ]/gu;
const WESTERN = /[àâãåæçèêëìîïñòôõøùûÿœšžÀÂÃÅÆÇÈÊËÌÎÏÑÒÔÕØÙÛŸŒ€£¥©®°±µ¿¡ß]/gu;
const SHARED = /[áéíóúöüäÁÉÍÓÚÖÜÄ]/gu;
// Inside a word only: Italian ends words on one ("più", "può"), French writes "où".
const VOWEL_PAIRS = /[aeiouyáéíóúý][èìùòøÈÌÙÒØ](?=\p{L})|[èìùòøÈÌÙÒØ][aeiouyáéíóúý]/giu;

/** The single-byte code page whose letters read the high bytes as words. */
function singleByte(bytes: Uint8Array): "windows-1250" | "windows-1252" {
  const w1250 = new TextDecoder("windows-1250").decode(bytes);
  const w1252 = new TextDecoder("windows-1252").decode(bytes);
  const score = (s: string, own: RegExp) =>
    (s.match(own)?.length ?? 0) * 2 +
    (s.match(SHARED)?.length ?? 0) -
    (s.match(/[\u0080-\u009f¤¦§¨«¬­¯´¸»]/g)?.length ?? 0) * 3;
  // Czech and Slovak read as 1252 turn č, ě, ů, ř into vowels beside vowels ("úèet", "èástka"):
  // Western words seldom put such a vowel next to another.
  // Hungarian ő read as 1252 is an õ outside Portuguese's "õe"/"õa".
  const glued = ((w1252.match(VOWEL_PAIRS)?.length ?? 0) + (w1252.match(/õ(?![ea])/giu)?.length ?? 0)) * 2;
  return score(w1250, CENTRAL) > score(w1252, WESTERN) - glued ? "windows-1250" : "windows-1252";
}

function strictDecode(label: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** The encoding of `bytes` (see the module comment). */
export function detectEncoding(bytes: Uint8Array, declared: string | null = null): TextEncodingName | string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  const wide = utf16Without(bytes);
  if (wide) return wide;
  const ascii = !bytes.some((b) => b >= 0x80);
  if (ascii) return "utf-8";
  // UTF-8 bytes under a single-byte label ("CHARSET:8859-1" on a UTF-8 file) read as UTF-8.
  if (strictDecode("utf-8", bytes) !== null) return "utf-8";
  if (declared && !/^utf-?8$/i.test(declared) && strictDecode(declared, bytes) !== null) {
    // A Western label on Central European bytes: the letters decide between the two code pages.
    if (/1252|8859-?1$|latin-?1/i.test(declared)) return singleByte(bytes);
    return declared;
  }
  return singleByte(bytes);
}

/** Bytes → text in the detected encoding, without a BOM and without NUL padding. */
export function decodeBytes(
  bytes: Uint8Array,
  declared: string | null = null,
): { text: string; encoding: string } {
  const encoding = detectEncoding(bytes, declared);
  let text: string;
  try {
    text = new TextDecoder(encoding).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  return { text: text.replace(/^\uFEFF/, "").replace(/\u0000+/g, ""), encoding };
}
