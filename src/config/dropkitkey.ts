// Whether a package.json's text holds dropkit's config (a top-level `dropkit` key): one rule for the CLI and the playground.

/**
 * Whether a package.json's text holds a top-level `dropkit` key; an unparsable one that mentions it counts, so that
 * the core reports the syntax error with its line and column. No Node API: the playground imports it too.
 */
export function dropkitKeyInText(text: string): boolean {
  // Cheap pre-check: most package.json files never mention dropkit, so most never get parsed.
  if (!text.includes('"dropkit"')) return false;
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return true;
  }
  return typeof data === "object" && data !== null && !Array.isArray(data) && Object.hasOwn(data, "dropkit");
}
