// Whose files dropkit takes code from (SPEC section 12): only those that, with the directories above them, its user or root owns and no one else can write.

import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { DropkitError, fail } from "../errors.js";
import { fileStamp, statOrNull } from "./fsutil.js";
import type { Env } from "../types.js";

/** What is checked, for messages: `config`, `preset`, `init hooks directory`, `post hook`, ... */
export type TrustRole = "config" | "preset" | `${"init" | "post"} hooks directory` | `${"init" | "post"} hook`;

/** Whose files are trusted, and which directories the user allowed whatever their owner (`DROPKIT_SAFE_DIRECTORIES`). */
export interface TrustPolicy {
  /**
   * The owners whose files are trusted: the running user, root, and under sudo the user who ran it; `null` where there
   * are no POSIX owners (Windows): nothing is checked.
   */
  owners: number[] | null;
  /** The running user's id (effective), for messages. */
  uid: number;
  /** `DROPKIT_SAFE_DIRECTORIES=*`: every path is allowed. */
  allowAll: boolean;
  /** The allowed directories, absolute, as written and with links resolved: each allows itself and everything below it. */
  allowed: string[];
}

/** A trust policy and how far up a path's directories are checked: the last directory discovery searched (`null`: none). */
export interface TrustScope {
  policy: TrustPolicy;
  fence: string | null;
}

/**
 * What the rule needs of a file's status (`fstat` of its descriptor, or `stat` of a path): owner, group, mode, kind.
 * Its own type, not node:fs's `Stats`, so that the library's declarations need no Node types.
 */
export interface FileStatus {
  uid: number;
  gid: number;
  mode: number;
  isDirectory(): boolean;
}

/** Why a path is not trusted: it, or the directory named, is owned by someone else or writable by others. */
export interface Distrust {
  /** The path that fails: the item itself or a directory above it. */
  path: string;
  /** `owner`: owned by another user; `writable`: writable by its group or others. */
  kind: "owner" | "writable";
  /** Its owner's user id, its mode bits, and whether it is a directory. */
  uid: number;
  mode: number;
  directory: boolean;
}

/** The variable that lists the directories whose files are trusted whatever their owner and mode. */
export const safeDirectoriesVariable = "DROPKIT_SAFE_DIRECTORIES";

/**
 * The trust policy of a run: the running user and root own trusted files (and, when root runs under sudo, the user
 * in `SUDO_UID`, as git does); `DROPKIT_SAFE_DIRECTORIES` lists directories (separated by `path.delimiter`, `*` for
 * every one) whose files are trusted whatever their owner and mode.
 *
 * @throws DropkitError `SchemaValidationError` (65) naming the variable when an entry is not an absolute path or
 *   holds a NUL character.
 */
export function trustPolicy(env: Env, platform: string = process.platform): TrustPolicy {
  const uid = platform !== "win32" ? effectiveUid() : -1;
  const owners = uid >= 0 ? [uid, 0] : null;
  const sudo = env.SUDO_UID;
  if (owners && uid === 0 && sudo && /^\d+$/.test(sudo)) owners.push(Number(sudo));
  const policy: TrustPolicy = { owners, uid, allowAll: false, allowed: [] };
  const value = env[safeDirectoriesVariable];
  if (!value) return policy;
  for (const entry of value.split(path.delimiter)) {
    if (entry === "") continue;
    if (entry === "*") {
      policy.allowAll = true;
      continue;
    }
    if (entry.includes("\0") || !path.isAbsolute(entry)) {
      const what = entry.includes("\0") ? "holds a NUL character (\\u0000)" : "is not an absolute path";
      fail(
        "SchemaValidationError",
        `Invalid value in ${safeDirectoriesVariable}: the entry ${JSON.stringify(entry)} ${what}. List absolute ` +
          `directories separated by "${path.delimiter}", or * for every directory.`,
        { source: safeDirectoriesVariable },
      );
    }
    const dir = path.resolve(entry);
    policy.allowed.push(dir);
    const real = realOrNull(dir);
    if (real && real !== dir) policy.allowed.push(real);
  }
  return policy;
}

/**
 * The scope of a resolve: the policy, fenced at the last directory discovery searched (none for an explicit config).
 * Of a discovery (src/config/discovery.ts) it reads only the directories searched.
 */
export function trustScope(env: Env, discovery: { searched: ReadonlyArray<{ dir: string }> } | null): TrustScope {
  return { policy: trustPolicy(env), fence: discovery?.searched.at(-1)?.dir ?? null };
}

/**
 * Why discovery must not enter `dir`: it is owned by someone else or writable by others (a sticky directory such as
 * `/tmp` included); `null` when it is trusted, allowed, or cannot be looked at (then it is searched as before).
 */
export function distrustOfDirectory(dir: string, policy: TrustPolicy): Distrust | null {
  if (policy.owners === null || isAllowed(dir, policy)) return null;
  const stats = statOrNull(dir);
  return stats ? distrustOf(dir, stats, policy) : null;
}

/**
 * Refuses `item` unless it is trusted: the item itself, then each directory above it up to `scope.fence` when the
 * item is below the fence, else up to the directory that holds it. Each must be owned by an owner of the policy and
 * not writable by group or others (sticky or not), unless it is in an allowed directory. A missing item passes: the
 * caller reports it as missing.
 *
 * @throws DropkitError `UntrustedFile` (77) naming the item, the path that fails, its owner, and how to allow it.
 */
export function requireTrusted(item: string, role: TrustRole, scope: TrustScope): void {
  const distrust = distrustOfPath(item, scope);
  if (distrust) throw untrusted(item, role, distrust, scope.policy);
}

/** Why `item` is not trusted (see `requireTrusted`), or `null`. Judged by path: for a directory, or where no descriptor is held. */
export function distrustOfPath(item: string, scope: TrustScope): Distrust | null {
  const { policy } = scope;
  if (policy.owners === null) return null;
  const stats = statOrNull(item);
  if (!stats) return null;
  return distrustOfOpened(item, realOrNull(item) ?? item, stats, scope);
}

/**
 * Why an opened item is not trusted, or `null`: `stats` are those of its open descriptor and `real` the path it has
 * after every link (`realPathOf`), so the verdict is on the very file that is read or run. The item itself, then
 * the directories above it as written, then those above it as resolved: up to `scope.fence` (as written, or its own
 * real path) when the item is below it, else up to the directory that holds it. A link in a trusted directory can
 * point anywhere, so the directories of its target are checked as well.
 */
export function distrustOfOpened(item: string, real: string, stats: FileStatus, scope: TrustScope): Distrust | null {
  const { policy, fence } = scope;
  if (policy.owners === null || isAllowed(item, policy, real)) return null;
  const own = distrustOf(item, stats, policy);
  if (own) return own;
  const written = distrustOfDirectories(item, fence, policy);
  if (written || real === item) return written;
  return distrustOfDirectories(real, fence === null ? null : realOrNull(fence), policy);
}

/**
 * Refuses an opened item unless it is trusted (see `distrustOfOpened`).
 *
 * @throws DropkitError `UntrustedFile` (77) naming the item, the path that fails, its owner, and how to allow it.
 */
export function requireTrustedOpened(item: string, real: string, stats: FileStatus, role: TrustRole, scope: TrustScope): void {
  const distrust = distrustOfOpened(item, real, stats, scope);
  if (distrust) throw untrusted(item, role, distrust, scope.policy);
}

/**
 * The path of an open descriptor after every link: on Linux the kernel's name of the open file (`/proc/self/fd`),
 * which no later rename or link swap changes for this check; elsewhere the real path of `named`.
 */
export function realPathOf(fd: number, named: string): string {
  if (process.platform === "linux") {
    try {
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      // An open file removed since keeps its last name, marked: its directories are still the ones to judge.
      if (real.startsWith("/")) return real.endsWith(" (deleted)") ? real.slice(0, -" (deleted)".length) : real;
    } catch {
      // No /proc (a container without it): as elsewhere.
    }
  }
  return realOrNull(named) ?? named;
}

/** The error for an item that is not trusted. */
export function untrusted(item: string, role: TrustRole, distrust: Distrust, policy: TrustPolicy): DropkitError {
  const where = distrust.path === item ? "it is" : `it is in ${distrust.path}, which is`;
  const allow = distrust.directory && distrust.path === item ? item : path.dirname(item);
  const fix =
    distrust.path !== item
      ? "or move it to a directory that only you or root can write"
      : distrust.kind === "owner"
        ? `or have it owned by ${policy.uid === 0 ? "root" : "you or root"}`
        : `or take the write permission away from others (chmod go-w ${quote(item)})`;
  const message =
    `The ${role} ${item} is not used: ${where} ${describe(distrust)}. dropkit runs code only from files owned by ${owners(policy)} ` +
    "and writable by no one else (a group counts only when it has another member), so that another user cannot make it run theirs. " +
    `If you trust it, allow its directory with ${safeDirectoriesVariable}=${quote(allow)}, ${fix}.`;
  return new DropkitError({ name: "UntrustedFile", message, file: item, source: item });
}

/** The warning for a config candidate in a directory discovery did not enter (see `distrustOfDirectory`). */
export function untrustedCandidateWarning(candidate: string, distrust: Distrust): string {
  const owner = statOrNull(candidate);
  const whose = owner ? ` (owned by ${userText(owner.uid)})` : "";
  return (
    `${candidate}${whose} is not used as the config: ${distrust.path} is ${describe(distrust)}, so the search for ` +
    `a config stopped below it. If you trust it, allow the directory with ` +
    `${safeDirectoriesVariable}=${quote(distrust.path)}.`
  );
}

// --- helpers ---

/** The effective user id, or -1 where the runtime has none (no POSIX owners to compare with). */
function effectiveUid(): number {
  try {
    return typeof process.geteuid === "function" ? process.geteuid() : -1;
  } catch {
    return -1;
  }
}

/** Each directory above `item`, up to `fence` when the item is below it, else the one that holds it: why one fails, or `null`. */
function distrustOfDirectories(item: string, fence: string | null, policy: TrustPolicy): Distrust | null {
  const top = fence !== null && isWithin(item, fence) ? fence : path.dirname(item);
  for (let dir = path.dirname(item); ; dir = path.dirname(dir)) {
    const distrust = distrustOfDirectory(dir, policy);
    if (distrust) return distrust;
    if (dir === top || path.dirname(dir) === dir) return null;
  }
}

/**
 * Why one path, with its `stats`, is not trusted; `null` when it is. Write for others always fails; write for the
 * group only when the group has a member besides the owner: a user-private group (Debian's and Fedora's default,
 * whose users' umask 002 makes 664 files and 775 folders) gives no one else that write, as OpenSSH's StrictModes reasons.
 */
function distrustOf(file: string, stats: FileStatus, policy: TrustPolicy): Distrust | null {
  // A runtime whose stat has no owner (an emulated node:fs) gives nothing to compare: as on Windows.
  if (typeof stats.uid !== "number") return null;
  const writable = (stats.mode & 0o002) !== 0 || ((stats.mode & 0o020) !== 0 && !isPrivateGroup(stats.gid, stats.uid));
  const kind = !policy.owners!.includes(stats.uid) ? "owner" : writable ? "writable" : null;
  return kind ? { path: file, kind, uid: stats.uid, mode: stats.mode & 0o7777, directory: stats.isDirectory() } : null;
}

/**
 * Whether group `gid` has no member but the user `uid`: no other user has it as their primary group (/etc/passwd), and
 * its member list (/etc/group) names no one else. A group not in /etc/group (a directory service) is not known to be
 * private. Read only when a group-writable item is judged.
 */
export function isPrivateGroup(gid: number, uid: number): boolean {
  const { users, groups } = accounts();
  const members = groups.get(gid);
  if (members === undefined) return false;
  for (const [id, user] of users) if (id !== uid && user.gid === gid) return false;
  for (const name of members) {
    const member = [...users].find(([, user]) => user.name === name);
    if (!member || member[0] !== uid) return false;
  }
  return true;
}

/** `owned by alice (uid 1000)`, or `writable by others (mode 1777, ...), owned by root (uid 0)`. */
function describe(distrust: Distrust): string {
  const { mode } = distrust;
  const owner = userText(distrust.uid);
  if (distrust.kind === "owner") return `owned by ${owner}`;
  const who = [mode & 0o020 ? "its group" : "", mode & 0o002 ? "others" : ""].filter(Boolean).join(" and ");
  const sticky =
    distrust.directory && mode & 0o1000 ? " (the sticky bit stops others from replacing files there, not from adding them)" : "";
  return `writable by ${who} (mode ${mode.toString(8)}), owned by ${owner}${sticky}`;
}

/** Whose files are trusted, for messages: `root (you)`, or `you, alice (uid 1000), or root`. */
function owners(policy: TrustPolicy): string {
  return policy.uid === 0 ? "root (you)" : `you, ${userText(policy.uid)}, or root`;
}

/** `alice (uid 1000)`, or `uid 1000` for an id with no name in /etc/passwd. */
function userText(uid: number): string {
  const name = userName(uid);
  return name ? `${name} (uid ${uid})` : `uid ${uid}`;
}

/** The account files the rule reads, in this order: users (name, primary group), then groups (members). */
const accountFiles = ["/etc/passwd", "/etc/group"] as const;

type Accounts = { users: Map<number, { name: string; gid: number }>; groups: Map<number, string[]> };
/** The accounts as last read, with the stamp of each file then: a long-lived process reads them again after a change. */
let known: (Accounts & { stamp: string }) | undefined;

/**
 * Users by id (name, primary group) from /etc/passwd and groups' member names by id from /etc/group, read when first
 * needed and again whenever either file is another or has changed since (`accountsStamp`): the language server lives on
 * while a user joins a group, as each CLI run reads them anew. What is read is stamped from the descriptor it is read
 * from, so a file replaced between the look and the read is read again at the next call.
 */
function accounts(): Accounts {
  if (known !== undefined && known.stamp === accountsStamp()) return known;
  const opened = accountFiles.map((file) => openOrNull(file));
  try {
    const stamp = opened.map((fd) => (fd === null ? "-" : fileStamp(fstatSync(fd)))).join(" ");
    const [passwd, group] = opened.map(linesOf);
    const read: Accounts & { stamp: string } = { stamp, users: new Map(), groups: new Map() };
    for (const line of passwd!) {
      const [name, , id, gid] = line.split(":");
      if (name && id && /^\d+$/.test(id) && !read.users.has(Number(id))) read.users.set(Number(id), { name, gid: Number(gid) });
    }
    for (const line of group!) {
      const [name, , id, members] = line.split(":");
      if (name && id && /^\d+$/.test(id) && !read.groups.has(Number(id)))
        read.groups.set(Number(id), members ? members.split(",").filter(Boolean) : []);
    }
    known = read;
    return read;
  } finally {
    for (const fd of opened) if (fd !== null) closeSync(fd);
  }
}

/**
 * The identity of the account files as they are now: what a verdict kept beyond one run depends on besides the files
 * it judged (a group that gains a member makes its group-writable files untrusted).
 */
export function accountsStamp(): string {
  return accountFiles
    .map((file) => {
      const stats = statOrNull(file);
      return stats ? fileStamp(stats) : "-";
    })
    .join(" ");
}

function openOrNull(file: string): number | null {
  try {
    return openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    // No such file (users from a directory service only): ids are shown alone, and no group is known to be private.
    return null;
  }
}

/** An account file's lines, or none when it is missing or cannot be read: as when there is no such file. */
function linesOf(fd: number | null): string[] {
  if (fd === null) return [];
  try {
    return readFileSync(fd, "utf8").split("\n");
  } catch {
    return [];
  }
}

/** A user id's name in /etc/passwd (for messages: a file's owner), or undefined. */
export function userName(uid: number): string | undefined {
  return accounts().users.get(uid)?.name;
}

/** Whether `file` is at or below an allowed directory, as written or with links resolved (`real`, when known). */
function isAllowed(file: string, policy: TrustPolicy, real?: string): boolean {
  if (policy.allowAll) return true;
  if (policy.allowed.length === 0) return false;
  const abs = path.resolve(file);
  if (policy.allowed.some((dir) => isWithin(abs, dir))) return true;
  const resolved = real ?? realOrNull(abs);
  return resolved !== null && policy.allowed.some((dir) => isWithin(resolved, dir));
}

function isWithin(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function quote(file: string): string {
  return /^[\w./,:@+-]+$/.test(file) ? file : `'${file.replace(/'/g, "'\\''")}'`;
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync.native(file);
  } catch {
    return null;
  }
}
