export declare function exists(path: string): boolean;
export declare function join(...parts: string[]): string;
export declare function tempDir(): string;
export declare function remove(dir: string): void;
export declare function readText(...parts: string[]): string;
export declare function writeText(path: string, text: string): void;
export declare function entries(dir: string): string[];
export declare function files(dir: string): string[];
