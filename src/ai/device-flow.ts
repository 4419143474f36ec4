/**
 * OAuth 2.0 device authorization grant (RFC 8628) client for the `vendor` connection, against
 * configurable endpoints. Plain fetch, no framework: the person opens the verification URL on any
 * device and types the user code; the Worker polls the token endpoint at the server's interval.
 * Tokens are returned to the caller to store; they are never logged.
 */
export interface DeviceFlowConfig {
  deviceAuthUrl: string;
  tokenUrl: string;
  clientId: string;
  scope: string | null;
  userinfoUrl: string | null;
}

export interface DeviceFlowEnv {
  VENDOR_DEVICE_AUTH_URL?: string;
  VENDOR_TOKEN_URL?: string;
  VENDOR_CLIENT_ID?: string;
  VENDOR_SCOPE?: string;
  VENDOR_USERINFO_URL?: string;
}

export function deviceFlowConfig(env: DeviceFlowEnv): DeviceFlowConfig | null {
  const deviceAuthUrl = env.VENDOR_DEVICE_AUTH_URL?.trim();
  const tokenUrl = env.VENDOR_TOKEN_URL?.trim();
  const clientId = env.VENDOR_CLIENT_ID?.trim();
  if (!deviceAuthUrl || !tokenUrl || !clientId) return null;
  return {
    deviceAuthUrl,
    tokenUrl,
    clientId,
    scope: env.VENDOR_SCOPE?.trim() || null,
    userinfoUrl: env.VENDOR_USERINFO_URL?.trim() || null,
  };
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUrl: string;
  expiresIn: number;
  interval: number;
}

export type TokenPoll =
  | { kind: "pending" }
  | { kind: "slow_down" }
  | { kind: "denied" }
  | { kind: "expired" }
  | { kind: "failed"; reason: string }
  | {
      kind: "granted";
      accessToken: string;
      refreshToken: string | null;
      expiresIn: number | null;
      idToken: string | null;
    };

const form = (fields: Record<string, string | null>) =>
  new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== null));

const TIMEOUT_MS = 10_000;

async function post(
  url: string,
  body: URLSearchParams,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  let json: Record<string, unknown> = {};
  try {
    const parsed = (await res.json()) as unknown;
    if (parsed && typeof parsed === "object") json = parsed as Record<string, unknown>;
  } catch {
    /* not JSON: handled by the callers as a failure */
  }
  return { status: res.status, json };
}

const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);

export async function startDeviceAuthorization(cfg: DeviceFlowConfig): Promise<DeviceAuthorization> {
  const { status, json } = await post(cfg.deviceAuthUrl, form({ client_id: cfg.clientId, scope: cfg.scope }));
  const deviceCode = str(json.device_code);
  const userCode = str(json.user_code);
  const verificationUrl =
    str(json.verification_uri_complete) ?? str(json.verification_uri) ?? str(json.verification_url);
  if (status !== 200 || !deviceCode || !userCode || !verificationUrl) {
    throw new Error(
      `the authorization server refused to start (HTTP ${status}${str(json.error) ? `, ${str(json.error)}` : ""})`,
    );
  }
  return {
    deviceCode,
    userCode,
    verificationUrl,
    expiresIn: num(json.expires_in) ?? 900,
    interval: num(json.interval) ?? 5,
  };
}

export async function pollDeviceToken(cfg: DeviceFlowConfig, deviceCode: string): Promise<TokenPoll> {
  const { status, json } = await post(
    cfg.tokenUrl,
    form({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: deviceCode,
      client_id: cfg.clientId,
    }),
  );
  const accessToken = str(json.access_token);
  if (status === 200 && accessToken) {
    return {
      kind: "granted",
      accessToken,
      refreshToken: str(json.refresh_token),
      expiresIn: num(json.expires_in),
      idToken: str(json.id_token),
    };
  }
  switch (json.error) {
    case "authorization_pending":
      return { kind: "pending" };
    case "slow_down":
      return { kind: "slow_down" };
    case "access_denied":
      return { kind: "denied" };
    case "expired_token":
      return { kind: "expired" };
    default:
      return { kind: "failed", reason: `HTTP ${status}${str(json.error) ? ` ${str(json.error)}` : ""}` };
  }
}

/** The email of the signed-in account: the userinfo endpoint, else the id token's claim (display only). */
export async function accountEmail(
  cfg: DeviceFlowConfig,
  accessToken: string,
  idToken: string | null,
): Promise<string | null> {
  if (cfg.userinfoUrl) {
    try {
      const res = await fetch(cfg.userinfoUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (res.ok) {
        const email = str(((await res.json()) as Record<string, unknown>).email);
        if (email) return email;
      }
    } catch {
      /* fall back to the id token */
    }
  }
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    return str(json.email);
  } catch {
    return null;
  }
}
