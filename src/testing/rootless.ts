/**
 * The rootless sandbox (what it gives a command: docs/testing.md, "Without root"). A Node
 * process cannot enter a new user namespace itself (unshare(CLONE_NEWUSER) refuses a process
 * with threads), so the sandbox is a child: util-linux's `unshare` makes the namespaces, and a
 * small sh script, its pid 1, makes the mounts and runs the command in the foreground (not as
 * pid 1, so its signals keep their default actions). `setpriv --pdeathsig` ties `unshare` to
 * this process and `--kill-child` the pid namespace to `unshare`: when the command ends, or
 * this process dies, the kernel kills what the sandbox left, and its mounts go with it.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { constants } from "node:os";
import { assertDuration, assertOptions, InvalidArgumentError } from "../errors/base.js";
import { RootlessError } from "../errors/testing.js";
import { listPids, procIsOurs, readProcStat } from "../internal/proc-stat.js";
import { BoundedSink } from "../invoke/bounded-sink.js";

/** Options of {@link runRootless}. */
export interface RunRootlessOptions {
  /**
   * The command's environment. Default: this process's. The sandbox adds `LIBCNI_ROOTLESS=1`,
   * sets `TMPDIR`, and appends root's sbin dirs to `PATH` (plugins look up `ip` there).
   */
  env?: NodeJS.ProcessEnv;
  /** The command's working directory. Default: this process's. */
  cwd?: string;
  /**
   * "inherit" (the default): the command uses this process's stdin, stdout and stderr. "pipe":
   * no stdin, and the result holds its stdout and stderr (each at most 16 MiB).
   */
  stdio?: "inherit" | "pipe";
  /** Aborting sends SIGTERM to the command; after `graceMs` the sandbox is killed whole. */
  signal?: AbortSignal;
  /** How long an aborted command has to exit before the sandbox is killed. Default 5000. */
  graceMs?: number;
}

/** How the command run by {@link runRootless} ended. */
export interface RootlessResult {
  /** Its exit status (128 + n for signal n, as its shell reports it); undefined when killed. */
  exitCode: number | undefined;
  /** The signal that killed the sandbox, when it was killed (an abort past its grace). */
  signal: string | undefined;
  /** True when the caller's `signal` stopped it. */
  aborted: boolean;
  /** Its stdout (`stdio: "pipe"`; empty otherwise). */
  stdout: string;
  /** Its stderr (`stdio: "pipe"`; empty otherwise). */
  stderr: string;
}

/** The most bytes of each stream `stdio: "pipe"` keeps; and of the setup's output. */
const maxOutputBytes = 16 * 1024 * 1024;
const maxSetupBytes = 64 * 1024;

/** What the setup prints on its own stderr once the sandbox is made; its errors come before. */
const readyLine = "lcni-rootless: ready";

/**
 * The sandbox's pid 1: `$@` is the command. Its stderr (fd 2) goes to this process until the
 * ready line; fd 3 is the stderr the command gets. Every failure before the command exits 125
 * with a line that says what failed. Plain POSIX sh: dash, bash and busybox run it.
 */
const rootlessScript = `set -u
fail() { printf 'lcni-rootless: %s\\n' "$*" >&2; exit 125; }
state=/run/lcni-rootless
# fresh DIR STAGE SKIP...: DIR becomes a new tmpfs; its old content (bound with its submounts at
# STAGE: first at /tmp, the one dir sure to exist, then moved into the new tmpfs) shows through a
# link per entry, except the entries SKIP names, which start empty or absent.
fresh() {
  dir=$1 stage=$2
  shift 2
  skip=" $* lcni-rootless "
  mount --rbind "$dir" /tmp && mount -t tmpfs -o mode=0755 lcni-rootless "$dir" &&
    mkdir -p "$stage" && mount --move /tmp "$stage" || fail "cannot make a new $dir"
  set --
  for entry in "$stage"/* "$stage"/.[!.]* "$stage"/..?*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=\${entry##*/}
    case $skip in *" $name "*) continue ;; esac
    [ -e "$dir/$name" ] || [ -L "$dir/$name" ] || set -- "$@" "$entry"
  done
  [ $# -eq 0 ] || ln -s -- "$@" "$dir/" || fail "cannot link the old entries of $dir"
}
fresh /run "$state/run" netns xtables.lock cni
if [ -d /var/run ] && ! [ /var/run -ef /run ]; then
  fresh /var/run "$state/var-run" netns xtables.lock cni
fi
if [ -d /var/lib/cni ] && ! [ -L /var/lib/cni ]; then
  mount -t tmpfs -o mode=0755 lcni-rootless /var/lib/cni || fail "cannot make a new /var/lib/cni"
else
  fresh /var/lib "$state/var-lib" cni
fi
mkdir -p /run/netns /var/lib/cni && mkdir -m 1777 "$state/tmp" || fail "cannot make the sandbox's dirs"
ip link set lo up || fail "cannot bring lo up (iproute2's ip)"
export TMPDIR="$state/tmp" LIBCNI_ROOTLESS=1
printf '%s\\n' '${readyLine}' >&2
exec 2>&3 3>&-
"$@"
exit $?
`;

/** `unshare`'s arguments: every namespace the sandbox owns, pid 1 killed with `unshare`. */
const unshareArgs = [
  "--user",
  "--map-root-user",
  "--net",
  "--mount",
  "--propagation",
  "private",
  "--pid",
  "--kill-child",
  "--mount-proc",
];

/** The dirs root's PATH has and a user's often lacks (Debian's: no sbin at all). */
const sbinDirs = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/** The command's environment: `env` with the sbin dirs appended to PATH where missing. */
function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  const dirs = path.split(":");
  const missing = sbinDirs.filter((d) => !dirs.includes(d));
  return { ...env, PATH: missing.length === 0 ? path : [path, ...missing].join(":") };
}

/** The kernel settings that refuse unprivileged user namespaces, as /proc/sys names them. */
const settings = [
  {
    file: "kernel/unprivileged_userns_clone",
    refuses: "0",
    reason: "userns-disabled",
    what: "unprivileged user namespaces are off",
    fix: "sysctl -w kernel.unprivileged_userns_clone=1, as root (and kernel.unprivileged_userns_clone=1 in /etc/sysctl.d/ to keep it)",
  },
  {
    file: "user/max_user_namespaces",
    refuses: "0",
    reason: "userns-limit",
    what: "no user namespace may be made",
    fix: "sysctl -w user.max_user_namespaces=15000, as root (and user.max_user_namespaces=15000 in /etc/sysctl.d/ to keep it)",
  },
  {
    file: "kernel/apparmor_restrict_unprivileged_userns",
    refuses: "1",
    reason: "apparmor",
    what: "AppArmor gives unprivileged user namespaces no capabilities",
    fix: "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, as root (and the same in /etc/sysctl.d/ to keep it), or an AppArmor profile allowing `userns,` for the program",
  },
] as const;

/**
 * The RootlessError for a sandbox that could not be made, from what its setup printed and the
 * kernel's settings under `procSys` (/proc/sys; another dir in tests).
 */
export async function rootlessFailure(
  output: string,
  procSys = "/proc/sys",
  cause?: unknown,
): Promise<RootlessError> {
  const text = output.trim();
  // The last lines say what failed last (mount's own words, then the setup's line).
  const said = text.split("\n").slice(-3).join("; ");
  const saidParen = said === "" ? "" : ` (${said})`;
  for (const setting of settings) {
    // Undefined (not refused) where the setting cannot be read.
    const value = await readFile(`${procSys}/${setting.file}`, "utf8").then(
      (s) => s.trim(),
      () => undefined,
    );
    if (value !== setting.refuses) continue;
    const name = `${setting.file.replace("/", ".")}=${value}`;
    return new RootlessError(
      `cannot make a rootless sandbox${saidParen}: ${setting.what} (${name}); allow them with ${setting.fix}`,
      setting.reason,
      { setting: name, fix: setting.fix, output: text, cause },
    );
  }
  if (
    (cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT" ||
    /failed to execute|: not found$|command not found/m.test(text)
  ) {
    return new RootlessError(
      `cannot make a rootless sandbox${saidParen}: a command it needs is missing: it runs util-linux's setpriv, unshare and mount, and iproute2's ip`,
      "missing-command",
      { output: text, cause },
    );
  }
  return new RootlessError(
    `cannot make a rootless sandbox: ${said || "its setup failed"} (in a container, its seccomp profile or a masked /proc may forbid user namespaces)`,
    "failed",
    { output: text, cause },
  );
}

/** The processes the sandbox's pid 1 runs (the command), by pid here; none if /proc is not ours. */
async function commandPids(sandboxPid: number): Promise<number[]> {
  if (!(await procIsOurs())) return [];
  const parents = new Map<number, number>();
  await Promise.all(
    ((await listPids()) ?? []).map(async (pid) => {
      const stat = await readProcStat(pid);
      if (stat !== undefined) parents.set(pid, stat.ppid);
    }),
  );
  const init = [...parents].filter(([, ppid]) => ppid === sandboxPid).map(([pid]) => pid);
  return [...parents].filter(([, ppid]) => init.includes(ppid)).map(([pid]) => pid);
}

function checkOptions(argv: readonly string[], options: RunRootlessOptions): void {
  assertOptions(options);
  if (
    !Array.isArray(argv) ||
    argv.length === 0 ||
    argv.some((a) => typeof a !== "string" || a.includes("\0"))
  ) {
    throw new InvalidArgumentError(
      "argv",
      "runRootless: argv must be a non-empty array of strings without NUL bytes (the command, then its arguments)",
    );
  }
  if (options.stdio !== undefined && options.stdio !== "inherit" && options.stdio !== "pipe") {
    throw new InvalidArgumentError(
      "stdio",
      `runRootless: option stdio must be "inherit" or "pipe", got ${String(options.stdio)}`,
    );
  }
  assertDuration("graceMs", options.graceMs, { subject: "runRootless option graceMs" });
}

/**
 * Runs `argv` (the command, then its arguments) in a new rootless sandbox, as root of its own
 * user namespace with a network namespace and a private /run/netns, /var/lib/cni and TMPDIR,
 * and resolves to how it ended, the sandbox gone by then. `tempNetns`, `testHost`,
 * `checkPlugin` and real plugins work there as under root (docs/testing.md, "Without root").
 * @throws RootlessError when the sandbox cannot be made (the kernel's setting that refuses, and
 *   its fix, are named); InvalidArgumentError for a bad argument.
 */
export async function runRootless(
  argv: readonly string[],
  options: RunRootlessOptions = {},
): Promise<RootlessResult> {
  checkOptions(argv, options);
  const pipe = options.stdio === "pipe";
  const result: RootlessResult = {
    exitCode: undefined,
    signal: undefined,
    aborted: false,
    stdout: "",
    stderr: "",
  };
  if (options.signal?.aborted) return { ...result, aborted: true };
  const child = spawn(
    "setpriv",
    [
      "--pdeathsig",
      "KILL",
      "--",
      "unshare",
      ...unshareArgs,
      "--",
      "/bin/sh",
      "-c",
      rootlessScript,
      "lcni-rootless",
      ...argv,
    ],
    {
      cwd: options.cwd,
      env: sandboxEnv(options.env ?? process.env),
      // fd 2 is the setup's (read here), fd 3 the stderr the command gets.
      stdio: pipe ? ["ignore", "pipe", "pipe", "pipe"] : ["inherit", "inherit", "pipe", 2],
    },
  );
  const stdout = new BoundedSink(maxOutputBytes);
  const stderr = new BoundedSink(maxOutputBytes);
  let ready = false;
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  (child.stdio[3] as NodeJS.ReadableStream | null)?.on("data", (chunk: Buffer) =>
    stderr.push(chunk),
  );
  // What unshare itself says after the setup (seldom anything) is the command's stderr.
  const afterSetup = (chunk: Buffer) => (pipe ? stderr.push(chunk) : process.stderr.write(chunk));
  child.stderr?.on("data", (chunk: Buffer) => {
    if (ready) return afterSetup(chunk);
    pending += chunk.toString("utf8");
    const at = pending.indexOf(`${readyLine}\n`);
    if (at < 0) {
      if (pending.length > maxSetupBytes) pending = pending.slice(-maxSetupBytes);
      return;
    }
    ready = true;
    const rest = pending.slice(at + readyLine.length + 1);
    if (rest !== "") afterSetup(Buffer.from(rest));
  });
  let killTimer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    result.aborted = true;
    if (!ready || child.pid === undefined) {
      child.kill("SIGKILL");
      return;
    }
    const pid = child.pid;
    killTimer = setTimeout(() => child.kill("SIGKILL"), options.graceMs ?? 5000);
    void commandPids(pid).then((pids) => {
      for (const p of pids) {
        try {
          process.kill(p, "SIGTERM");
        } catch {}
      }
    });
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const ended = await new Promise<
    { code: number | null; signal: NodeJS.Signals | null } | { error: Error }
  >((resolve) => {
    child.once("error", (error) => resolve({ error }));
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  options.signal?.removeEventListener("abort", onAbort);
  clearTimeout(killTimer);
  if ("error" in ended) throw await rootlessFailure(pending, undefined, ended.error);
  if (!ready) {
    if (result.aborted) return { ...result, signal: ended.signal ?? undefined };
    throw await rootlessFailure(pending);
  }
  result.exitCode = ended.code ?? undefined;
  result.signal = ended.signal ?? undefined;
  result.stdout = Buffer.from(stdout.bytes()).toString("utf8");
  result.stderr = Buffer.from(stderr.bytes()).toString("utf8");
  return result;
}

/** The exit status a shell gives for a command that ended as `result` says (128 + signal). */
export function rootlessExitStatus(result: RootlessResult): number {
  if (result.exitCode !== undefined) return result.exitCode;
  const number =
    result.signal === undefined ? undefined : constants.signals[result.signal as NodeJS.Signals];
  return number === undefined ? 1 : 128 + number;
}
