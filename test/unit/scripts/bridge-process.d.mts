export declare function freePort(): Promise<number>;
export declare function tempDir(): string;
export declare function remove(dir: string): void;
export declare function tokenPath(dir: string): string;
export declare function readToken(dir: string): string;
export declare function tokenMode(dir: string): number;
export declare function startBridge(
  dir: string,
  port: number,
  env: Record<string, string>,
): Promise<{ out: string; stop: () => Promise<void> }>;
export declare function send(
  port: number,
  opts: { path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: any }>;
