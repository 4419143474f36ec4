import { describe, expect, it } from "vitest";
import { deriveStatement } from "../../../../src/domains/data/restore-files";

const sha = "a".repeat(64);

describe("a restored statement row's key is the server's", () => {
  it("keeps the account's place in a multi-account file, and every statement kind", () => {
    const row = {
      file_sha256: sha,
      file_kind: "ofx",
      institution: "RBC",
      r2_key: `statements/rbc/${sha}.2.ofx`,
    };
    expect(deriveStatement(row)).toMatchObject({ r2_key: `statements/rbc/${sha}.2.ofx` });
    for (const kind of ["qif", "camt", "csv", "pdf", "qfx"])
      expect(deriveStatement({ file_sha256: sha, file_kind: kind, institution: "RBC" })).toMatchObject({
        r2_key: `statements/rbc/${sha}.${kind}`,
      });
  });
  it("a key of another shape is replaced, never read", () => {
    const planted = {
      file_sha256: sha,
      file_kind: "pdf",
      institution: "RBC",
      r2_key: "backups/auth/state.json",
    };
    expect(deriveStatement(planted)).toMatchObject({ r2_key: `statements/rbc/${sha}.pdf` });
    expect(deriveStatement({ ...planted, file_kind: "html" })).toMatch(/is not one of/);
  });
});
