/**
 * The rootless sandbox's refusals, without making one (the default tier needs no kernel
 * setting): what the setup printed plus the kernel's settings (a temp dir standing in for
 * /proc/sys) make a RootlessError naming the setting that refuses and its fix; a missing
 * command is said as such; bad arguments are InvalidArgumentErrors; `cnitool rootless` says a
 * refusal once and exits 125. The sandbox itself: test/rootless/ (a user namespace needed).
 */
import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rootlessCommand } from "../../src/cli/rootless.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { RootlessError, runRootless } from "../../src/testing/index.js";
import { rootlessExitStatus, rootlessFailure } from "../../src/testing/rootless.js";
import { runInProcess } from "../cli/helpers.js";

let procSys: string;

beforeEach(async () => {
  procSys = await mkdtemp(join(tmpdir(), "lcnitest-procsys-"));
  for (const dir of ["kernel", "user"]) await mkdir(join(procSys, dir));
});
afterEach(async () => {
  await rm(procSys, { recursive: true, force: true });
});

/** Writes /proc/sys-like files: `kernel/unprivileged_userns_clone` → value. */
async function sysctl(values: Record<string, string>): Promise<void> {
  for (const [file, value] of Object.entries(values))
    await writeFile(join(procSys, file), `${value}\n`);
}

const unshareEPERM = "unshare: unshare failed: Operation not permitted\n";

describe("a sandbox the kernel refuses", () => {
  it.each([
    [
      "kernel/unprivileged_userns_clone",
      "0",
      "userns-disabled",
      "kernel.unprivileged_userns_clone=0",
      "sysctl -w kernel.unprivileged_userns_clone=1",
    ],
    [
      "user/max_user_namespaces",
      "0",
      "userns-limit",
      "user.max_user_namespaces=0",
      "sysctl -w user.max_user_namespaces=",
    ],
    [
      "kernel/apparmor_restrict_unprivileged_userns",
      "1",
      "apparmor",
      "kernel.apparmor_restrict_unprivileged_userns=1",
      "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    ],
  ])("%s=%s: reason %s, the setting and its fix named", async (file, value, reason, setting, fix) => {
    // The other settings allow: only the one that refuses is named.
    await sysctl({
      "kernel/unprivileged_userns_clone": "1",
      "user/max_user_namespaces": "15000",
      "kernel/apparmor_restrict_unprivileged_userns": "0",
      [file]: value,
    });
    const error = await rootlessFailure(unshareEPERM, procSys);
    expect(error).toBeInstanceOf(RootlessError);
    expect(error.id).toBe("LIBCNI_ERR_ROOTLESS");
    expect(error.reason).toBe(reason);
    expect(error.setting).toBe(setting);
    expect(error.fix).toContain(fix);
    expect(error.message).toContain(setting);
    expect(error.message).toContain(fix);
    expect(error.message).toContain("unshare failed: Operation not permitted");
    expect(error.output).toBe(unshareEPERM.trim());
  });

  it("a setting that allows is not named; with none refusing, the setup's own words", async () => {
    await sysctl({ "kernel/unprivileged_userns_clone": "1", "user/max_user_namespaces": "9" });
    const error = await rootlessFailure(
      "lcni-rootless: cannot make a new /run\nmount: permission denied\n",
      procSys,
    );
    expect(error.reason).toBe("failed");
    expect(error.setting).toBeUndefined();
    expect(error.fix).toBeUndefined();
    expect(error.message).toContain("cannot make a new /run");
    expect(error.message).toContain("seccomp");
  });

  it("a kernel without the settings (no such files) is not said to refuse", async () => {
    const error = await rootlessFailure(unshareEPERM, join(procSys, "absent"));
    expect(error.reason).toBe("failed");
    expect(error.setting).toBeUndefined();
  });

  it("a missing command is said as one", async () => {
    const error = await rootlessFailure(
      "setpriv: failed to execute unshare: No such file or directory\n",
      procSys,
    );
    expect(error.reason).toBe("missing-command");
    expect(error.message).toContain("util-linux");
  });

  it("runRootless without setpriv on PATH: missing-command, the command never run", async () => {
    const marker = join(procSys, "ran");
    const error = await runRootless(["sh", "-c", `touch ${marker}`], {
      env: { PATH: join(procSys, "no-bin") },
      stdio: "pipe",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RootlessError);
    expect((error as RootlessError).reason).toBe("missing-command");
    await expect(access(marker)).rejects.toThrow();
  });
});

describe("runRootless's arguments", () => {
  it.each([
    ["no command", [], {}],
    ["a NUL byte", ["sh\0"], {}],
    ["not an array", "sh" as unknown as string[], {}],
    ["a bad stdio", ["true"], { stdio: "ignore" as "pipe" }],
    ["a negative grace", ["true"], { graceMs: -1 }],
    ["a grace no timer holds", ["true"], { graceMs: 2 ** 31 }],
  ])("%s is an InvalidArgumentError, before anything runs", async (_, argv, options) => {
    await expect(runRootless(argv, options)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it("an aborted signal runs nothing", async () => {
    const result = await runRootless(["true"], { signal: AbortSignal.abort() });
    expect(result).toEqual({
      exitCode: undefined,
      signal: undefined,
      aborted: true,
      stdout: "",
      stderr: "",
    });
  });
});

describe("exit statuses", () => {
  const ended = { aborted: false, stdout: "", stderr: "" };
  it("the command's status, or 128 + the signal that killed the sandbox", () => {
    expect(rootlessExitStatus({ ...ended, exitCode: 7, signal: undefined })).toBe(7);
    expect(rootlessExitStatus({ ...ended, exitCode: undefined, signal: "SIGKILL" })).toBe(137);
  });

  it("cnitool rootless: a refusal said once, exit 125; a usage error without a command", async () => {
    const lines: string[] = [];
    const code = await rootlessCommand(["true"], {
      env: { PATH: join(procSys, "no-bin") },
      cwd: procSys,
      stderr: { write: (t: string) => lines.push(t) },
    });
    expect(code).toBe(125);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Error: cannot make a rootless sandbox: a command it needs is missing/,
    );
    const usage = await runInProcess(["rootless"], {});
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("requires at least 1 arg(s), only received 0");
    expect(usage.stderr).toContain("cnitool rootless -- <command> [args...] [flags]");
  });
});
