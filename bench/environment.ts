// The environment every measured process gets: the machine's, less what changes Node's own start-up or dropkit's settings.

/**
 * Variables that change what every Node process does when it starts, peers and dropkit alike. A ratio to
 * `node -e ''` measures dropkit's own start-up against Node's; `NODE_EXTRA_CA_CERTS` alone (a CA bundle read and
 * parsed by every process) adds the same time to both sides and makes dropkit's own share look smaller than it is
 * (docs/performance.md#how-it-is-measured).
 */
const startupVariables = [
  "NODE_OPTIONS",
  "NODE_EXTRA_CA_CERTS",
  "NODE_COMPILE_CACHE",
  "NODE_V8_COVERAGE",
  "NODE_DEBUG",
  "NODE_DEBUG_NATIVE",
];

/** The measured processes' environment, and the start-up variables it left out (or, with `BENCH_KEEP_ENV=1`, kept). */
export function benchEnvironment(source: NodeJS.ProcessEnv = process.env): {
  env: Record<string, string>;
  startup: string[];
  kept: boolean;
} {
  const kept = source.BENCH_KEEP_ENV === "1";
  const env: Record<string, string> = {};
  const startup: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || name.startsWith("DROPKIT_")) continue;
    if (startupVariables.includes(name)) {
      startup.push(name);
      if (!kept) continue;
    }
    env[name] = value;
  }
  return { env, startup, kept };
}

/** One line for the report, so that figures from machines with other settings compare. */
export function describeEnvironment({ startup, kept }: { startup: string[]; kept: boolean }): string {
  if (startup.length === 0) return "environment: the machine's (no Node start-up variables set)";
  return kept
    ? `environment: the machine's, ${startup.join(", ")} kept for every process (BENCH_KEEP_ENV=1)`
    : `environment: without ${startup.join(", ")} for every process, peers included (BENCH_KEEP_ENV=1 keeps them)`;
}
