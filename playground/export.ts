// The editor's config in the other forms dropkit reads: a dropkit.config.ts with defineConfig, or the dropkit key of a package.json.

/** A `dropkit.config.ts` holding the config, typed by `defineConfig` (an unknown key is then a compile error). */
export function toConfigTs(config: Record<string, unknown>): string {
  return `import { defineConfig } from "dropkit";\n\nexport default defineConfig(${literal(withoutSchema(config), "")});\n`;
}

/**
 * A `package.json` carrying the config under `dropkit`. From a package.json, the whole file with the key
 * replaced; from a config file, a package.json with only that key, to merge into the project's own.
 */
export function toPackageJson(config: Record<string, unknown>, packageJson?: Record<string, unknown>): string {
  return JSON.stringify({ ...(packageJson ?? {}), dropkit: withoutSchema(config) }, null, 2) + "\n";
}

/** `$schema` points a JSON editor at the schema of a config file; in a .ts file or a package.json key it means nothing. */
function withoutSchema(config: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _, ...rest } = config;
  return rest;
}

/** A JavaScript literal in the project's style: double quotes, bare keys where they are identifiers, trailing commas. */
function literal(value: unknown, indent: string): string {
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => literal(v, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 60 && !flat.includes("\n") ? flat : `[\n${items.map((i) => `${inner}${i},\n`).join("")}${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const lines = entries.map(([k, v]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)},\n`);
    return `{\n${lines.join("")}${indent}}`;
  }
  return JSON.stringify(value);
}
