// Shell completion scripts (bash, zsh, fish) for `dropkit completion`, made from the CLI's own command and flag definitions.

/** One flag of a command: its names, its description, and what its value completes to (none for a boolean flag). */
export interface FlagSpec {
  names: string[];
  description: string;
  /**
   * `files` (any path), `themes` (auto, none, the theme archives), `modules` (the module archives), `directories` (the
   * `-C <dir>` that dropkit takes on every command, before or after it), or fixed words.
   */
  value?: "files" | "themes" | "modules" | "directories" | string[];
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
 * the shell runs no dropkit at Tab, and only lists the drop's `*.zip` for theme and module names. The drop is the
 * directory dropkit would run in: each `-C <dir>` on the line (any form, up to `--`), followed from the one before as
 * src/cli/directory.ts enters them, the words taken as the shell hands them over (quotes removed, a leading `~`).
 */
export function completionScript(shell: Shell, commands: CommandSpec[]): string {
  return shell === "bash" ? bashScript(commands) : shell === "zsh" ? zshScript(commands) : fishScript(commands);
}

/** `-C <dir>`, when the commands declare it: dropkit takes it before the command as after it (src/cli/directory.ts). */
function directoryFlag(commands: CommandSpec[]): FlagSpec | undefined {
  return commands.flatMap((c) => c.flags).find((f) => f.value === "directories");
}

/** The flags taken before the command: `-C <dir>` (when the commands declare it), `--help` and `--version`. */
function topFlags(commands: CommandSpec[]): FlagSpec[] {
  const directory = directoryFlag(commands);
  return [
    ...(directory ? [directory] : []),
    { names: ["--help"], description: "print the help" },
    { names: ["--version"], description: "print the version" },
  ];
}

// --- helpers ---

/** Words safe to put unquoted in any of the three shells (commands, flags, preset names, config keys). */
function shellWords(words: string[]): string {
  return words.map((w) => w.replace(/[^A-Za-z0-9_.,:@%+=/-]/g, "")).join(" ");
}

/**
 * The loop body of bash's and zsh's scripts (the same syntax in both) that takes the words of `-C <dir>` (every form,
 * up to `--`) as src/cli/directory.ts does: `$plain` is the word unquoted, `$typed` as typed, `$scratch` a variable free
 * to overwrite. Each directory goes to __dropkit_cd, and the loop goes on to the next word.
 */
function directoryWords(plain: string, typed: string, scratch: string): string {
  return `    if (( expect )); then
      expect=0
      # As dropkit reads it, a word that reads as a flag is not the directory.
      if [[ $${plain} != -?* ]]; then __dropkit_cd "$${plain}" "$${typed}"; continue; fi
    fi
    if (( ! ended )); then
      case $${plain} in
        --) ended=1 ;;
        -C|--directory) expect=1; continue ;;
        --directory=*) __dropkit_cd "\${${plain}#--directory=}"; continue ;;
        -C*) ${scratch}=\${${plain}#-C}; __dropkit_cd "\${${scratch}#=}"; continue ;;
      esac
    fi`;
}

function bashScript(commands: CommandSpec[]): string {
  const valueCases = new Map<string, string>();
  for (const c of commands) {
    for (const f of c.flags) {
      // -C's directory is completed before any command is known (_dropkit's first case).
      if (!f.value || f.value === "directories") continue;
      const action =
        f.value === "files"
          ? 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))'
          : f.value === "themes"
            ? 'COMPREPLY=($(compgen -W "$(__dropkit_themes "$dir")" -- "$cur"))'
            : f.value === "modules"
              ? 'COMPREPLY=($(compgen -W "$(__dropkit_modules "$dir")" -- "$cur"))'
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
  const top = shellWords([...commands.map((c) => c.name), ...topFlags(commands).flatMap((f) => f.names)]);
  return `# bash completion for dropkit: source this file, or save it as ~/.local/share/bash-completion/completions/dropkit
__dropkit_themes() { local f; echo auto none; for f in "\${1:+\${1%/}/}"*-theme.zip; do [ -e "$f" ] && f=\${f##*/} && echo "\${f%-theme.zip}"; done; }
__dropkit_modules() {
  local f; for f in "\${1:+\${1%/}/}"*.zip; do [ -e "$f" ] || continue; f=\${f##*/}; case "$f" in *-theme.zip) ;; *) echo "\${f%.zip}" ;; esac; done
}
# A word as the shell hands it to dropkit, its quotes and backslashes taken away, in __dropkit_word (nothing is run).
__dropkit_unquote() {
  local w=$1 q="" c i
  __dropkit_word=""
  for (( i = 0; i < \${#w}; i++ )); do
    c=\${w:i:1}
    if [[ $q == "'" ]]; then
      if [[ $c == "'" ]]; then q=""; else __dropkit_word+=$c; fi
    elif [[ $c == '\\' ]] && [[ -z $q || \${w:i+1:1} == [\\"\\\\\\$\\\`] ]]; then
      __dropkit_word+=\${w:i+1:1}; i=$(( i + 1 ))
    elif [[ $c == '"' ]]; then
      if [[ -n $q ]]; then q=""; else q='"'; fi
    elif [[ -z $q && $c == "'" ]]; then
      q="'"
    else
      __dropkit_word+=$c
    fi
  done
}
# One -C <dir> ($1), entered from $dir as dropkit does; $2 is the word as typed when the shell expands its leading ~.
__dropkit_cd() {
  local d=$1
  [[ $2 == "~" || $2 == "~/"* ]] && d=$HOME\${d:1}
  [[ -z $d ]] && return
  if [[ -z $dir || $d == /* ]]; then dir=$d; else dir=\${dir%/}/$d; fi
}
_dropkit() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" command="" i
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # bash splits --flag=value at "=": complete the value of the flag before it.
  if [[ "$cur" == "=" ]]; then cur=""
  elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then prev="\${COMP_WORDS[COMP_CWORD-2]}"
  else [[ "$prev" == -* && "$cur" != -* ]] || prev=""; fi
  # The words as dropkit gets them: COMP_WORDS is also split at "=" and ":", so the pieces that touch in COMP_LINE are one.
  local -a words=()
  local at=0 p=0 gap w
  for (( i = 0; i < \${#COMP_WORDS[@]}; i++ )); do
    w=\${COMP_WORDS[i]}
    gap=\${COMP_LINE:p}; gap=\${gap%%[![:space:]]*}; p=$(( p + \${#gap} ))
    if (( i > 0 )) && [[ -z $gap && -n $COMP_LINE && \${COMP_LINE:p:\${#w}} == "$w" ]]; then words[\${#words[@]}-1]+=$w; else words+=("$w"); fi
    p=$(( p + \${#w} ))
    (( i == COMP_CWORD )) && at=$(( \${#words[@]} - 1 ))
  done
  # -C <dir> in every form, up to "--", belongs to dropkit, not to the command: $dir is where the line's -C lead, $here
  # where those before the cursor do; on is 1 at a -C's separate directory, 2 in --directory=, -C= or -C<dir>.
  local dir="" here="" value="" expect=0 ended=0 on=0
  for (( i = 1; i < \${#words[@]}; i++ )); do
    w=\${words[i]}
    if (( i == at )); then
      here=$dir; on=$expect; expect=0
      (( ended )) || case $w in --directory=*|-C?*) on=2 ;; esac
      continue
    fi
    __dropkit_unquote "$w"
${directoryWords("__dropkit_word", "w", "value")}
    (( i < at )) && [[ -z $command && $__dropkit_word != -* ]] && command=$__dropkit_word
  done
  if (( on )); then
    # Directories, from $here; bash replaces only the word's piece after its last "=" or ":", so the rest is kept.
    local flag="" typed base="" d
    w=\${words[at]}
    (( on == 2 )) && case $w in --directory=*) flag=--directory= ;; -C=*) flag=-C= ;; *) flag=-C ;; esac
    [[ $cur == ":" ]] && cur=""
    typed=\${w:0:\${#w}-\${#cur}}
    __dropkit_unquote "\${w:\${#flag}}"; value=$__dropkit_word
    [[ -n $here && $value != [/~]* ]] && base=\${here%/}/
    __dropkit_unquote "\${typed:\${#flag}}"
    # bash marks with "/" a directory it can find by the text it replaces; one in $here, or a part of a word, is marked here.
    local mark=""
    [[ -n $base || \${#typed} -ne \${#flag} ]] && mark=/
    COMPREPLY=()
    while IFS= read -r d; do
      d=\${d#"$base"}$mark
      if (( \${#typed} <= \${#flag} )); then COMPREPLY+=("\${flag:\${#typed}}$d"); else COMPREPLY+=("\${d#"$__dropkit_word"}"); fi
    done < <(compgen -d -- "$base$value")
    compopt -o filenames 2>/dev/null
    [[ -n $mark ]] && compopt -o nospace 2>/dev/null
    return
  fi
  if [[ -n "$prev" && -n "$command" ]]; then
    case "$command $prev" in
${cases}
    esac
  fi
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "${top}" -- "$cur")); return
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
      : f.value === "directories"
        ? ":directory:_files -/"
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
  const top = topFlags(commands)
    .flatMap((f) => f.names.map((name) => zshQuote(`${zshText(name)}:${zshText(f.description)}`)))
    .join(" ");
  const cases = commands
    .map((c) => {
      const specs = c.flags.flatMap(zshFlag);
      if (c.argument) specs.push(`'1:argument:(${shellWords(c.argument)})'`);
      return `    ${c.name}) _arguments -s ${specs.join(" \\\n      ")} ;;`;
    })
    .join("\n");
  return `#compdef dropkit
# zsh completion for dropkit: source this file after compinit, or save it as _dropkit in a directory of $fpath
__dropkit_themes() { local -a zips; zips=(\${__dropkit_in:+\${__dropkit_in%/}/}*-theme.zip(N:t)); compadd -- auto none \${zips%-theme.zip}; }
__dropkit_modules() { local -a zips; zips=(\${__dropkit_in:+\${__dropkit_in%/}/}*.zip(N:t)); zips=(\${zips:#*-theme.zip}); compadd -- \${zips%.zip}; }
# One -C <dir> ($1, unquoted), entered from $__dropkit_in as dropkit does; $2 is the word as typed when zsh expands its ~.
__dropkit_cd() {
  local d=$1 name
  if [[ $2 == \\~* ]]; then
    name=\${\${d%%/*}#\\~}
    if [[ -z $name ]]; then d=$HOME\${d#\\~}; elif (( $+userdirs[$name] )); then d=$userdirs[$name]\${d#\\~$name}; fi
  fi
  [[ -z $d ]] && return
  if [[ -z $__dropkit_in || $d == /* ]]; then __dropkit_in=$d; else __dropkit_in=\${__dropkit_in%/}/$d; fi
}
_dropkit() {
  local -a commands flags rest __dropkit_base
  commands=(${list})
  flags=(${top})
  # -C <dir> in every form, up to "--", belongs to dropkit, not to the command: $__dropkit_in is where the line's -C
  # lead, $here where those before the cursor do; on is 1 at a -C's separate directory, 2 in --directory=, -C= or
  # -C<dir>. The command's completion gets the line without them (rest), from the command on.
  local __dropkit_in= here= word plain i at=0 ci=0 expect=0 ended=0 on=0
  rest=("$words[1]")
  for (( i = 2; i <= $#words; i++ )); do
    word=$words[i]
    if (( i == CURRENT )); then
      here=$__dropkit_in; on=$expect; expect=0
      (( ended )) || [[ $word != (--directory=|-C?)* ]] || on=2
      rest+=("$word"); at=$#rest
      continue
    fi
    plain=\${(Q)word}
${directoryWords("plain", "word", "plain")}
    rest+=("$word")
    (( i < CURRENT && ! ci )) && [[ $plain != -* ]] && ci=$#rest
  done
  if (( on )); then
    (( on == 2 )) && { compset -P '--directory=' || compset -P '-C=' || compset -P '-C' }
    if [[ -n $here && $PREFIX != [/~]* ]]; then
      # _files ignores -W after ./ or ../, so they go into it; :A (absolute, links resolved) goes where chdir does.
      word=$IPREFIX
      compset -P '(./|../)#'
      here=\${here%/}/\${IPREFIX#"$word"}
      __dropkit_base=("\${here:A}")
      _files -/ -W __dropkit_base
    else
      _files -/
    fi
    return
  fi
  if (( ! ci )); then
    if [[ $PREFIX == -* ]]; then _describe -t options 'dropkit option' flags; else _describe -t commands 'dropkit command' commands; fi
    return
  fi
  local command=\${(Q)rest[ci]}
  words=("\${(@)rest[ci,-1]}")
  (( CURRENT = at - ci + 1 ))
  case $command in
${cases}
  esac
}
if [[ "$funcstack[1]" == _dropkit ]]; then _dropkit "$@"; else compdef _dropkit dropkit; fi
`;
}

/**
 * fish: where the line's `-C <dir>` lead (tokens as fish hands them over, unquoted), the command past them, and the
 * directories for a `-C`, from where those before it lead. fish's own file completion (through a command that has
 * none) finds the directories, as fish's __fish_complete_directories does.
 */
const fishFunctions = String.raw`# Where the line's -C lead, each from the last: all but the one at the cursor, or with --here those before it.
function __dropkit_dir
    set -l before (commandline -opc)
    set -l words $before[2..]
    if not contains -- --here $argv
        set -l all (commandline -op)
        set -l cur (commandline -ct)
        set -l from (math (count $before) + 1)
        test -n "$cur"; and set from (math $from + 1)
        set -a words $all[$from..]
    end
    set -l dir ''
    set -l expect 0
    for w in $words
        set -l d
        if test $expect = 1
            set expect 0
            # As dropkit reads it, a word that reads as a flag is not the directory; fish expands a leading ~.
            string match -qr -- '^-.' $w; or set d (string replace -r -- '^~(?=/|$)' ~ $w)
        end
        if not set -q d[1]
            switch $w
                case --
                    break
                case -C --directory
                    set expect 1
                case '--directory=*' '-C*'
                    set d (string replace -r -- '^(--directory=|-C=?)' '' $w)
            end
        end
        if test -n "$d"
            if string match -q -- '/*' $d; or test -z "$dir"
                set dir $d
            else
                set dir (string trim -r -c / -- $dir)/$d
            end
        end
    end
    echo $dir
end
# The command before the cursor, past -C and its directory.
function __dropkit_command
    set -l expect 0
    set -l ended 0
    for w in (commandline -opc)[2..]
        if test $expect = 1
            set expect 0
            string match -qr -- '^-.' $w; or continue
        end
        if test $ended = 0
            switch $w
                case --
                    set ended 1
                    continue
                case -C --directory
                    set expect 1
                    continue
            end
        end
        if not string match -q -- '-*' $w
            echo $w
            return 0
        end
    end
    return 1
end
function __dropkit_using
    set -l command (__dropkit_command); and test "$command" = $argv[1]
end
# The directories for -C: from where the -C before it lead, found by fish's file completion, relative to there.
function __dropkit_dirs
    set -l token (commandline -ct)
    set -l value (string replace -r -- '^(--directory=|-C=?)' '' "$token")
    set -l base ''
    set -l here (__dropkit_dir --here)
    if test -n "$here"; and not string match -qr -- '^[/~]' "$value"
        set base (string trim -r -c / -- $here)/
    end
    set -l from (math (string length -- $base) + 1)
    # The token as typed (quotes and all) after the base, escaped: fish reads the two as one word.
    test -n "$base"; and set base (string escape -- $base)
    complete -C"nonexistentcommandooheehoohaahaahdingdongwallawallabingbang $base$value" | string match -r -- '^.*/$' | string sub -s $from
end
function __dropkit_archives
    set -l dir (__dropkit_dir)
    set -l prefix ''
    test -n "$dir"; and set prefix (string trim -r -c / -- $dir)/
    for f in $prefix*.zip
        string replace -r -- '^.*/' '' $f
    end
end
function __dropkit_themes
    echo auto
    echo none
    __dropkit_archives | string replace -r -f -- '-theme\.zip$' ''
end
function __dropkit_modules
    __dropkit_archives | string match -v -- '*-theme.zip' | string replace -r -- '\.zip$' ''
end`;

function fishScript(commands: CommandSpec[]): string {
  const lines = [
    "# fish completion for dropkit: source this file, or save it as ~/.config/fish/completions/dropkit.fish",
    fishFunctions,
    "complete -c dropkit -f",
  ];
  // -C <dir> is taken before the command as after it: one completion, whatever the command.
  const directory = directoryFlag(commands);
  if (directory) lines.push(`complete -c dropkit ${fishNames(directory)} -x -a '(__dropkit_dirs)' -d ${fishQuote(directory.description)}`);
  for (const c of commands) lines.push(`complete -c dropkit -n "not __dropkit_command" -a ${c.name} -d ${fishQuote(c.description)}`);
  for (const c of commands) {
    const when = `-n "__dropkit_using ${c.name}"`;
    for (const f of c.flags) {
      if (f.value === "directories") continue;
      const value = !f.value
        ? ""
        : f.value === "files"
          ? " -r -F"
          : f.value === "themes"
            ? " -x -a '(__dropkit_themes)'"
            : f.value === "modules"
              ? " -x -a '(__dropkit_modules)'"
              : ` -x -a '${shellWords(f.value)}'`;
      lines.push(`complete -c dropkit ${when} ${fishNames(f)}${value} -d ${fishQuote(f.description)}`);
    }
    if (c.argument) lines.push(`complete -c dropkit ${when} -a '${shellWords(c.argument)}'`);
  }
  return lines.join("\n") + "\n";
}

/** A flag's names as fish's `complete` takes them: `-l name` for `--name`, `-s n` for `-n`. */
function fishNames(f: FlagSpec): string {
  const long = f.names.filter((n) => n.startsWith("--")).map((n) => `-l ${n.slice(2)}`);
  const short = f.names.filter((n) => /^-[^-]$/.test(n)).map((n) => `-s ${n.slice(1)}`);
  return [...long, ...short].join(" ");
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
