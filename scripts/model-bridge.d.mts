export declare const PROVIDERS: readonly string[];
export interface BridgeConfig {
  commands: Record<string, string[]>;
  /** Per provider, the model names a caller may ask for (the first is the default). */
  models?: Record<string, string[]>;
  token: string | null;
  /** Host names accepted besides loopback (a tunnel's name). */
  allowedHosts?: string[];
  timeoutMs: number;
}
export interface BridgeServer {
  listen(port: number, host: string, cb: () => void): void;
  address(): { port: number } | string | null;
  close(cb?: () => void): void;
  closeAllConnections(): void;
}
export declare function splitCommand(line: string): string[];
export declare function configFromEnv(env?: Record<string, string | undefined>): BridgeConfig;
export declare function stateDir(env?: Record<string, string | undefined>): string;
export declare function loadOrCreateToken(dir: string): { token: string; path: string; created: boolean };
export declare function createBridge(config?: BridgeConfig, log?: (line: string) => void): BridgeServer;
