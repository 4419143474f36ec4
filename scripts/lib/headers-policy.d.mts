export function withApiOrigin(headersText: string, apiBase: string | undefined): string;
export function applyApiOrigin(outDir: string, apiBase: string | undefined): boolean;
