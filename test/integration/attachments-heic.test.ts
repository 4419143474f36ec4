// HEIC/HEIF → JPEG at upload, in workerd through HTTP: the WebAssembly path (no Images binding in
// tests), its limits in words, and the Images binding when one is bound. Fixtures come from
// Debian's heif-enc (test/fixtures/receipts/make.mjs), not hand-made bytes.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { receiptFixture } from "../fixtures/receipts";
import { call, expectEnvelope } from "../helpers/http";

const NOW = "2024-10-20T12:00:00.000Z";

function form(bytes: Uint8Array, name: string, type = "image/heic") {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type }));
  return fd;
}

const upload = (fd: FormData, extra: Partial<Env> = {}) =>
  call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW, env: extra });

async function sha256Hex(data: Uint8Array | string) {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function objects() {
  return (await env.FILES.list({ prefix: "attachments/" })).objects.map((o) => o.key);
}

async function stored(key: string) {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`no object ${key}`);
  return { bytes: new Uint8Array(await obj.arrayBuffer()), type: obj.httpMetadata?.contentType };
}

/** Width and height from a JPEG's start-of-frame segment (walking the markers from SOI). */
function jpegSize(b: Uint8Array): { width: number; height: number } {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new Error("no SOI marker");
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) throw new Error(`lost at byte ${i}`);
    const marker = b[i + 1]!;
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    }
    i += 2 + length;
  }
  throw new Error("no SOF marker");
}

async function reset() {
  await env.DB.batch(["attachments", "activity_log"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  for (const key of await objects()) await env.FILES.delete(key);
}

describe("HEIC → JPEG in WebAssembly (no Images binding)", () => {
  beforeEach(reset);

  it("a 4.5 MP portrait photo is stored as a 1536×2048 JPEG; the id and hash stay the original's", async () => {
    const heic = receiptFixture("receipt-photo.heic");
    const res = await upload(form(heic, "IMG_0042.HEIC"));
    expect(res.status, res.text).toBe(200);
    const hash = await sha256Hex(heic);
    expect(res.body).toMatchObject({
      content_type: "image/jpeg",
      sha256: hash,
      original_filename: "IMG_0042.HEIC",
    });
    expect(res.body.id).toBe(`att_${(await sha256Hex(`${hash}\nIMG_0042.HEIC`)).slice(0, 16)}`);
    const [key, ...more] = await objects();
    expect(more).toEqual([]);
    expect(key).toBe(`attachments/2024-10/${hash}.jpg`);
    const obj = await stored(key!);
    expect(obj.type).toBe("image/jpeg");
    expect([...obj.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpegSize(obj.bytes)).toEqual({ width: 1536, height: 2048 });
    expect(res.body.size_bytes).toBe(obj.bytes.byteLength);
    expect(obj.bytes.byteLength).toBeLessThan(heic.byteLength * 10);

    const file = await call(`/api/v1/attachments/${res.body.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("content-disposition")).toContain("IMG_0042.HEIC");
  });

  it("a small HEIC (with an alpha plane) keeps its size: never upscaled", async () => {
    const res = await upload(form(receiptFixture("receipt.heic"), "small.heif", "image/heif"));
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_type).toBe("image/jpeg");
    const [key] = await objects();
    expect(jpegSize((await stored(key!)).bytes)).toEqual({ width: 360, height: 420 });
  });

  it("re-uploading the same HEIC under the same name upserts: same id, one row, one object", async () => {
    const heic = receiptFixture("receipt-photo.heic");
    const first = await upload(form(heic, "IMG_0042.HEIC"));
    expect(first.status, first.text).toBe(200);
    const again = await upload(form(heic, "IMG_0042.HEIC"));
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.content_type).toBe("image/jpeg");
    expect(again.body.size_bytes).toBe(first.body.size_bytes);
    expect(await objects()).toHaveLength(1);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM attachments").first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("two HEIC uploads at once both convert (conversions take turns, neither is lost)", async () => {
    const [a, b] = await Promise.all([
      upload(form(receiptFixture("receipt-photo.heic"), "first.heic")),
      upload(form(receiptFixture("receipt.heic"), "second.heic")),
    ]);
    expect([a.status, b.status], a.text + b.text).toEqual([200, 200]);
    expect([a.body.content_type, b.body.content_type]).toEqual(["image/jpeg", "image/jpeg"]);
    expect(await objects()).toHaveLength(2);
  });

  it("a 12 MP photo (an iPhone's default) is stored as a 2048×1536 JPEG", async () => {
    const heic = receiptFixture("receipt-12mp.heic");
    const res = await upload(form(heic, "IMG_1200.HEIC"));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ content_type: "image/jpeg", sha256: await sha256Hex(heic) });
    const [key, ...more] = await objects();
    expect(more).toEqual([]);
    const obj = await stored(key!);
    expect(obj.type).toBe("image/jpeg");
    expect(jpegSize(obj.bytes)).toEqual({ width: 2048, height: 1536 });
    expect([...obj.bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(res.body.size_bytes).toBe(obj.bytes.byteLength);
  });

  it("a 24 MP photo is refused with 413 in words (what to do), and nothing is stored", async () => {
    const res = await upload(form(receiptFixture("receipt-24mp.heic"), "IMG_2400.HEIC"));
    const e = expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE");
    expect(e.error).toMatch(/5664×4248 \(24\.1 megapixels\)/);
    expect(e.error).toMatch(/up to 16 megapixels/);
    expect(e.error).toMatch(/dashboard/);
    expect(e.error).toMatch(/JPEG on the phone/);
    expect(e.error).toMatch(/Images binding/);
    expect(e.details).toMatchObject({
      reason: "heic_too_many_pixels",
      width: 5664,
      height: 4248,
      max_pixels: 16_000_000,
    });
    expect(await objects()).toEqual([]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM attachments").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("a damaged HEIC (right magic bytes, its image data cut off) is a 422, never a 500", async () => {
    const whole = receiptFixture("receipt-photo.heic");
    const cut = whole.slice(0, Math.floor(whole.byteLength * 0.6));
    const res = await upload(form(cut, "broken.heic"));
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.error).toMatch(/damaged/);
    expect(e.details.errors[0]).toMatchObject({ loc: ["body", "file"], type: "value_error" });
    expect(e.details.errors[0].msg).toMatch(/does not decode/);
    expect(await objects()).toEqual([]);
  });

  it("a 10-bit (HDR) HEIC is a 422 that says so", async () => {
    const res = await upload(form(receiptFixture("receipt-10bit.heic"), "IMG_HDR.HEIC"));
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].msg).toMatch(/10-bit \(HDR\)/);
    expect(await objects()).toEqual([]);
  });
});

describe("HEIC with an Images binding bound", () => {
  beforeEach(reset);

  /** Stands in for Cloudflare's Images service (not our code): records the call, answers a JPEG. */
  function imagesService(answer: Uint8Array | Error) {
    const calls: unknown[] = [];
    const binding = {
      input: (_stream: ReadableStream) => ({
        transform(t: unknown) {
          calls.push(t);
          return this;
        },
        async output(o: unknown) {
          calls.push(o);
          if (answer instanceof Error) throw answer;
          return { image: () => new Blob([answer]).stream() };
        },
      }),
    };
    return { calls, env: { IMAGES: binding } as unknown as Partial<Env> };
  }

  it("the binding's JPEG is what is stored (asked for JPEG, scaled down)", async () => {
    const jpeg = receiptFixture("receipt.jpg");
    const svc = imagesService(jpeg);
    const res = await upload(form(receiptFixture("receipt-12mp.heic"), "IMG_1200.HEIC"), svc.env);
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_type).toBe("image/jpeg");
    const [key] = await objects();
    expect((await stored(key!)).bytes).toEqual(jpeg);
    expect(svc.calls).toEqual([
      { width: 1568, height: 1568, fit: "scale-down" },
      { format: "image/jpeg", quality: 85 },
    ]);
  });

  it("when the binding fails, the WebAssembly path converts instead", async () => {
    const svc = imagesService(new Error("IMAGES_TRANSFORM_ERROR 9422"));
    const res = await upload(form(receiptFixture("receipt-photo.heic"), "IMG_0042.HEIC"), svc.env);
    expect(res.status, res.text).toBe(200);
    const [key] = await objects();
    expect(jpegSize((await stored(key!)).bytes)).toEqual({ width: 1536, height: 2048 });
  });
});
