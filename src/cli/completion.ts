// Shell completion scripts (bash, zsh, fish) for `dropkit completion`, made from the CLI's own command and flag definitions.

/** One flag of a command: its names, its description, and what its value completes to (none for a boolean flag). */
export interface FlagSpec {
  names: string[];
  description: string;
  /** `files` (any path), `themes` (auto, none, the theme archives), `modules` (the module archives), or fixed words. */
  value?: "files" | "themes" | "modules" | string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  /** What the command's positional argument completes to. */
  argument?: string[];
}

/** The shells `dropkit completion` writes a script for. */
export const shells = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof shells)[number];

/**
 * The completion script for `shell`. Everything is in the script (commands, flags, fixed values, the bundled presets):
 * the shell runs no dropkit at Tab, and only lists the drop's `*.zip` for theme and module names.
 */
export function completionScript(shell: Shell, commands: CommandSpec[]): string {
  return shell === "bash" ? bashScript(commands) : shell === "zsh" ? zshScript(commands) : fishScript(commands);
}

// --- helpers ---

/** Words safe to put unquoted in any of the three shells (commands, flags, preset names, config keys). */
function shellWords(words: string[]): string {
  return words.map((w) => w.replace(/[^A-Za-z0-9_.,:@%+=/-]/g, "")).join(" ");
}

function bashScript(commands: CommandSpec[]): string {
  const valueCases = new Map<string, string>();
  for (const c of commands) {
    for (const f of c.flags) {
      if (!f.value) continue;
      const action =
        f.value === "files"
          ? 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))'
          : f.value === "themes"
            ? 'COMPREPLY=($(compgen -W "$(__dropkit_themes)" -- "$cur"))'
            : f.value === "modules"
              ? 'COMPREPLY=($(compgen -W "$(__dropkit_modules)" -- "$cur"))'
              : `COMPREPLY=($(compgen -W "${shellWords(f.value)}" -- "$cur"))`;
      for (const name of f.names) valueCases.set(`${c.name} ${name}`, action);
    }
  }
  const cases = [...valueCases].map(([key, action]) => `    "${key}") ${action}; return ;;`).join("\n");
  const flags = commands
    .map((c) => `    ${c.name}) COMPREPLY=($(compgen -W "${shellWords(c.flags.flatMap((f) => f.names))}" -- "$cur")); return ;;`)
    .join("\n");
  const args = commands
    .filter((c) => c.argument)
    .map((c) => `    ${c.name}) COMPREPLY=($(compgen -W "${shellWords(c.argument!)}" -- "$cur")); return ;;`)
    .join("\n");
  return `# bash completion for dropkit: source this file, or save it as ~/.local/share/bash-completion/completions/dropkit
__dropkit_themes() { local f; echo auto none; for f in *-theme.zip; do [ -e "$f" ] && echo "\${f%-theme.zip}"; done; }
__dropkit_modules() { local f; for f in *.zip; do case "$f" in *-theme.zip) ;; *) [ -e "$f" ] && echo "\${f%.zip}" ;; esac; done; }
_dropkit() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" command="" i
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # bash splits --flag=value at "=": complete the value of the flag before it.
  if [[ "$cur" == "=" ]]; then cur=""; elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then prev="\${COMP_WORDS[COMP_CWORD-2]}"; else [[ "$prev" == -* && "$cur" != -* ]] || prev=""; fi
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in -*|=) ;; *) command="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ -n "$prev" && -n "$command" ]]; then
    case "$command $prev" in
${cases}
    esac
  fi
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "${shellWords(commands.map((c) => c.name))} --help --version" -- "$cur")); return
  fi
  if [[ "$cur" == -* ]]; then
    case "$command" in
${flags}
    esac
  fi
  case "$command" in
${args}
  esac
  COMPREPLY=()
}
complete -F _dropkit dropkit
`;
}

/** A zsh `_arguments` spec for one flag. */
function zshFlag(f: FlagSpec): string[] {
  const description = zshText(f.description);
  const action = !f.value
    ? ""
    : f.value === "files"
      ? ":path:_files"
      : f.value === "themes"
        ? ":theme:__dropkit_themes"
        : f.value === "modules"
          ? ":module:__dropkit_modules"
          : `:value:(${shellWords(f.value)})`;
  const exclusive = f.names.length > 1 ? `(${f.names.join(" ")})` : "";
  const repeat = f.description.includes("repeatable") ? "*" : "";
  return f.names.map((name) =>
    zshQuote(`${repeat || exclusive}${name}${f.value && name.startsWith("--") ? "=" : ""}[${description}]${action}`),
  );
}

function zshScript(commands: CommandSpec[]): string {
  const list = commands.map((c) => zshQuote(`${zshText(c.name)}:${zshText(c.description)}`)).join(" ");
  const cases = commands
    .map((c) => {
      const specs = c.flags.flatMap(zshFlag);
      if (c.argument) specs.push(`'1:argument:(${shellWords(c.argument)})'`);
      return `    ${c.name}) _arguments -s ${specs.join(" \\\n      ")} ;;`;
    })
    .join("\n");
  return `#compdef dropkit
# zsh completion for dropkit: source this file after compinit, or save it as _dropkit in a directory of $fpath
__dropkit_themes() { local -a zips; zips=(*-theme.zip(N)); compadd -- auto none \${zips%-theme.zip}; }
__dropkit_modules() { local -a zips; zips=(*.zip(N)); zips=(\${zips:#*-theme.zip}); compadd -- \${zips%.zip}; }
_dropkit() {
  local -a commands
  commands=(${list})
  if (( CURRENT == 2 )); then
    _describe -t commands 'dropkit command' commands
    return
  fi
  local command=$words[2]
  shift words
  (( CURRENT-- ))
  case $command in
${cases}
  esac
}
if [[ "$funcstack[1]" == _dropkit ]]; then _dropkit "$@"; else compdef _dropkit dropkit; fi
`;
}

function fishScript(commands: CommandSpec[]): string {
  const names = shellWords(commands.map((c) => c.name));
  const lines = [
    "# fish completion for dropkit: source this file, or save it as ~/.config/fish/completions/dropkit.fish",
    "function __dropkit_themes; echo auto; echo none; for f in *-theme.zip; string replace -r -- '-theme\\.zip$' '' $f; end; end",
    "function __dropkit_modules; for f in *.zip; string match -q -- '*-theme.zip' $f; or string replace -r -- '\\.zip$' '' $f; end; end",
    "complete -c dropkit -f",
  ];
  for (const c of commands)
    lines.push(`complete -c dropkit -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${fishQuote(c.description)}`);
  for (const c of commands) {
    const when = `-n "__fish_seen_subcommand_from ${c.name}"`;
    for (const f of c.flags) {
      const long = f.names.filter((n) => n.startsWith("--")).map((n) => `-l ${n.slice(2)}`);
      const short = f.names.filter((n) => /^-[^-]$/.test(n)).map((n) => `-s ${n.slice(1)}`);
      const value = !f.value
        ? ""
        : f.value === "files"
          ? " -r -F"
          : f.value === "themes"
            ? " -x -a '(__dropkit_themes)'"
            : f.value === "modules"
              ? " -x -a '(__dropkit_modules)'"
              : ` -x -a '${shellWords(f.value)}'`;
      lines.push(`complete -c dropkit ${when} ${[...long, ...short].join(" ")}${value} -d ${fishQuote(f.description)}`);
    }
    if (c.argument) lines.push(`complete -c dropkit ${when} -a '${shellWords(c.argument)}'`);
  }
  return lines.join("\n") + "\n";
}

// --- quoting: each shell's own, so that a description reaches the list as it is written (apostrophes, brackets, `$`) ---

/** A description on one line: a newline in it would list an empty candidate after it (fish) or break the item (zsh). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * zsh: `text` as one single-quoted word. Nothing is special inside the quotes; an apostrophe ends them, is escaped
 * and opens them again ('\''), which zsh reads without any option set. (bash's completion takes no descriptions.)
 */
export function zshQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * zsh: a name or description as `_describe` (`name:description`) and `_arguments` (`--flag[description]`) read it: a
 * backslash before each `\`, `[`, `]` and `:`, which they remove.
 */
export function zshText(text: string): string {
  return oneLine(text).replace(/[\\[\]:]/g, "\\$&");
}

/** fish: `text` as one single-quoted word on one line; inside fish's single quotes only `\'` and `\\` are escapes. */
export function fishQuote(text: string): string {
  return `'${oneLine(text).replace(/[\\']/g, "\\$&")}'`;
}
