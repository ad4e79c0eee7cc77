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
