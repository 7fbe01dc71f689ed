export function compiledBuildDir(cacheRoot: string): string;
export function compiledBuild(cacheRoot: string): Promise<{ script: string; workers: Record<string, string> }>;
