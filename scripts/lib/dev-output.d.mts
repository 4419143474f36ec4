export function devOutputFilter(opts?: {
  verbose?: boolean;
  onReady?: (url: string) => void;
  logLine?: (line: string) => void;
}): (line: string) => string | null;
export function pipeLines(
  stream: NodeJS.ReadableStream,
  filter: (line: string) => string | null,
  write: (s: string) => void,
): void;
