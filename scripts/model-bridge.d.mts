export declare const PROVIDERS: readonly string[];
export interface BridgeConfig {
  commands: Record<string, string[]>;
  token: string | null;
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
export declare function createBridge(config?: BridgeConfig, log?: (line: string) => void): BridgeServer;
