/**
 * runc, the OCI runtime that makes the container's process: mini gives it a bundle whose
 * network namespace is the pod's pinned one, and runc joins it.
 */
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { constants } from "node:os";

/** How a child ended, as a shell reports it: its exit code, or 128 + the signal's number. */
function exitCodeOf(code, signal) {
  return code ?? 128 + (constants.signals[signal] ?? 0);
}

/** Waits for a child; resolves to its exit code (a start failure rejects). */
function exited(child) {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(exitCodeOf(code, signal)));
  });
}

export class Runc {
  /** @param {string} root runc's state dir (`runc --root`) */
  constructor(root, binary = process.env.MINI_RUNC ?? "runc") {
    this.root = root;
    this.binary = binary;
  }

  spawn(args, stdio) {
    return spawn(this.binary, ["--root", this.root, ...args], { stdio });
  }

  /** Runs a runc command to its end, capturing its output. */
  async call(args) {
    const child = this.spawn(args, ["ignore", "pipe", "pipe"]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await exited(child);
    return { code, stdout, stderr: stderr.trim() };
  }

  /** Every container runc knows: id -> { status, pid } (`runc list`). */
  async list() {
    const { code, stdout, stderr } = await this.call(["list", "--format", "json"]);
    if (code !== 0) throw new Error(`runc list: ${stderr}`);
    const containers = JSON.parse(stdout) ?? [];
    return new Map(containers.map((c) => [c.id, { status: c.status, pid: c.pid }]));
  }

  /**
   * `runc run` in the foreground: the container's stdio is mini's, and SIGINT/SIGTERM sent to
   * mini are passed on. Resolves to the container's exit code once runc has removed it.
   */
  async runForeground(id, bundle) {
    const child = this.spawn(["run", "--bundle", bundle, id], "inherit");
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward).on("SIGTERM", forward);
    try {
      return await exited(child);
    } finally {
      process.off("SIGINT", forward).off("SIGTERM", forward);
    }
  }

  /**
   * `runc run --detach`: returns once the process runs. Its stdout and stderr go to `logFile`
   * (not mini's: the caller of mini would otherwise wait for the container to close them).
   */
  async runDetached(id, bundle, logFile) {
    const log = await open(logFile, "a");
    try {
      const child = this.spawn(
        ["run", "--detach", "--bundle", bundle, id],
        ["ignore", log.fd, log.fd],
      );
      const code = await exited(child);
      if (code !== 0) throw new Error(`runc run --detach ${id} failed (${code}); see ${logFile}`);
    } finally {
      await log.close();
    }
  }

  /** `runc exec`: a command in the running container, with mini's stdio. Resolves to its exit code. */
  exec(id, argv) {
    return exited(this.spawn(["exec", id, ...argv], "inherit"));
  }

  /** Stops (SIGKILL) and removes the container; one runc does not know is already gone. */
  async delete(id) {
    const { code, stderr } = await this.call(["delete", "--force", id]);
    if (code !== 0 && !/does not exist/.test(stderr))
      throw new Error(`runc delete ${id}: ${stderr}`);
  }
}
