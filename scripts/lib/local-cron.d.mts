export declare function dueCrons(now: Date): string[];
export declare function devOrigin(argv: string[]): string;
export declare function startLocalCron(origin: string, opts?: { log?: (msg: string) => void }): () => void;
