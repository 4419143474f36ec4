import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { apiTokens } from "../../db/schema";
import { DEFAULT_SCOPE, PASSWORD_MAX, PASSWORD_MIN, TOKEN_SCOPES } from "./rules";

export const LoginIn = z.object({ password: z.string().min(1).max(PASSWORD_MAX) }).meta({ id: "_LoginIn" });

export const SetPasswordIn = z
  .object({
    password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
    current_password: z
      .string()
      .max(PASSWORD_MAX)
      .nullable()
      .optional()
      .describe("Required once a password is set"),
  })
  .meta({ id: "_SetPasswordIn" });

export const SignOutAllIn = z
  .object({
    current_password: z
      .string()
      .max(PASSWORD_MAX)
      .nullable()
      .optional()
      .describe("Checked when given (counts toward the wrong-password lockout)"),
  })
  .meta({ id: "_SignOutAllIn" });

export const AuthResponse = z.object({ status: z.string() }).meta({ id: "_AuthResponse" });

export const WhoamiResponse = z
  .object({
    kind: z.enum(["token", "session", "tofu", "dev-bypass"]),
    token_id: z.string().nullable(),
    label: z.string().nullable(),
    scope: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .meta({
    id: "WhoamiResponse",
    description:
      "The resolved identity of the caller. Token fields are null for sessions, trust on first use " +
      "and the dev bypass; `last_used_at` may lag the current request by up to 15 minutes.",
  });
export type WhoamiResponse = z.infer<typeof WhoamiResponse>;

const Scope = z.enum(TOKEN_SCOPES);

/** The api_tokens columns a client may see (the table is the shape's source). */
export const ApiToken = createSelectSchema(apiTokens)
  .pick({ id: true, label: true, scope: true, created_at: true, last_used_at: true })
  .meta({ id: "ApiToken", description: "An API token's metadata (never the token or its hash)." });

export const ApiTokenListResponse = z
  .object({ tokens: z.array(ApiToken) })
  .meta({ id: "ApiTokenListResponse" });

export const ApiTokenIssueRequest = z
  .object({
    label: z.string().trim().min(1).max(100),
    scope: Scope.default(DEFAULT_SCOPE).describe("`read` allows GET only; `read+write` everything"),
  })
  .strict()
  .meta({ id: "ApiTokenIssueRequest" });

export const ApiTokenIssueResponse = ApiToken.extend({
  token: z.string().describe("The raw `fin_...` token: shown this once, only its SHA-256 is stored"),
}).meta({ id: "ApiTokenIssueResponse" });

export const ApiTokenRevokeResponse = z
  .object({ id: z.string(), status: z.literal("revoked") })
  .meta({ id: "ApiTokenRevokeResponse" });

/** A browser session as listed in Settings: never the cookie or its signature. */
export const WebappSession = z
  .object({
    id: z.string(),
    created_at: z.string(),
    last_seen_at: z.string().nullable().describe("Updated at most every 15 minutes"),
    user_agent: z.string().nullable(),
    ip: z.string().nullable(),
    expires_at: z.string(),
    current: z.boolean().describe("The session this request came with"),
  })
  .meta({ id: "WebappSession" });

export const WebappSessionListResponse = z
  .object({ sessions: z.array(WebappSession) })
  .meta({ id: "WebappSessionListResponse" });

export const WebappSessionEndResponse = z
  .object({ id: z.string(), status: z.literal("signed_out") })
  .meta({ id: "WebappSessionEndResponse" });
