// A second real user for the trust and ownership tests: created with useradd when the tests run as root (CI does).

import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** A second user: its name, ids and home, or why the tests that need one are skipped. */
export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

const inCi = Boolean(process.env.CI) && process.env.CI !== "false";

function lookup(name: string): OtherUser | undefined {
  const id = spawnSync("id", ["-u", name], { encoding: "utf8" });
  if (id.status !== 0) return undefined;
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  const entry = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  const home = entry.stdout.trim().split(":")[5] ?? `/home/${name}`;
  return { name, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), home };
}

/**
 * The user `dropkit-other` (created once with `useradd -m`; several test files may ask at once, so a lost race to
 * create it is fine). `skip` says why there is none: not root, or no useradd. Never skipped in CI, where CI runs as
 * root and a missing user would let the ownership rules go untested.
 */
export const otherUser: { skip: string | false; user: OtherUser } = (() => {
  const name = "dropkit-other";
  const none = { name, uid: -1, gid: -1, home: "" };
  if (process.getuid?.() !== 0) {
    if (inCi) throw new Error("the ownership tests need root in CI (to create a second user)");
    return { skip: "not root: cannot create a second user", user: none };
  }
  let user = lookup(name);
  if (!user) {
    spawnSync("useradd", ["-m", name], { encoding: "utf8" });
    user = lookup(name);
  }
  if (!user) {
    if (inCi) throw new Error("useradd could not create the user dropkit-other");
    return { skip: "useradd could not create a second user", user: none };
  }
  fs.mkdirSync(user.home, { recursive: true });
  return { skip: false, user };
})();

/** Runs a command as the other user (runuser), for files it must create and own itself. */
export function asOtherUser(command: string, args: string[], cwd?: string) {
  return spawnSync("runuser", ["-u", otherUser.user.name, "--", command, ...args], { cwd, encoding: "utf8" });
}

/**
 * A group shared by two users, as a team folder's (`chgrp dropkit-team`, mode 2775): root and `dropkit-other` are its
 * members, so group write lets the other user change what is in such a folder. Created once with groupadd; `null`
 * where there is no second user. A user's own private group (dropkit-other's primary group, root's group 0) has no
 * other member.
 */
export function teamGroup(): { name: string; gid: number } | null {
  if (otherUser.skip) return null;
  const name = "dropkit-team";
  const find = () => spawnSync("getent", ["group", name], { encoding: "utf8" }).stdout.trim();
  if (!find()) spawnSync("groupadd", ["-U", `root,${otherUser.user.name}`, name], { encoding: "utf8" });
  let entry = find();
  // An older groupadd without -U: members added one by one.
  if (entry && !entry.split(":")[3]) {
    for (const user of ["root", otherUser.user.name]) spawnSync("gpasswd", ["-a", user, name], { encoding: "utf8" });
    entry = find();
  }
  const [, , gid, members] = entry.split(":");
  if (!gid || !members?.includes(otherUser.user.name))
    throw new Error(`could not make the group ${name} with root and ${otherUser.user.name}`);
  return { name, gid: Number(gid) };
}

/**
 * A group with no member (`dropkit-solo`, created once with groupadd): the group of a root-owned, group-writable folder
 * that only root can write, until `join` gives it another member. `null` where there is no second user.
 */
export function soloGroup(): { name: string; gid: number; join(user: string): void; leave(user: string): void } | null {
  if (otherUser.skip) return null;
  const name = "dropkit-solo";
  const find = () => spawnSync("getent", ["group", name], { encoding: "utf8" }).stdout.trim();
  if (!find()) spawnSync("groupadd", [name], { encoding: "utf8" });
  const gpasswd = (...args: string[]) => {
    const run = spawnSync("gpasswd", [...args, name], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`gpasswd ${args.join(" ")} ${name}: ${run.stderr}`);
  };
  // Left with a member by a run that stopped half-way: emptied.
  if (find().split(":")[3]) gpasswd("-M", "");
  const gid = Number(find().split(":")[2]);
  if (!Number.isInteger(gid)) throw new Error(`could not make the group ${name}`);
  return { name, gid, join: (user) => gpasswd("-a", user), leave: (user) => gpasswd("-d", user) };
}
