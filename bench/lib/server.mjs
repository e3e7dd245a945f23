/**
 * What the bench drivers (run.mjs, pod.mjs) share: a long-lived benchmark process speaking
 * one line per request and one per answer, and the rotation that interleaves the variants.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * A benchmark process on pipes. `env` is its whole environment (default this process's), less
 * any CNI_* variable; `parse` turns an answer line into an object (JSON by default).
 */
export class Server {
  constructor(name, command, args, { parse = JSON.parse, env = process.env } = {}) {
    this.name = name;
    const clean = { ...env };
    for (const k of Object.keys(clean)) if (k.startsWith("CNI_")) delete clean[k];
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], env: clean });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.parse = parse;
    this.exited = new Promise((resolve) => this.child.once("exit", resolve));
  }
  /** Sends one line; the parsed answer, or an error for an `error` answer or an exit. */
  async request(line) {
    this.child.stdin.write(`${line}\n`);
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`${this.name} exited`);
    const answer = this.parse(value);
    if (answer.error) throw new Error(`${this.name}: ${answer.error}`);
    return answer;
  }
  /** Sends `cmd` as one JSON line. */
  send(cmd) {
    return this.request(JSON.stringify(cmd));
  }
  async close() {
    this.child.stdin.end();
    await this.exited;
  }
}

/** Rotates `items` by `r`, so that no variant always runs first (or right after another). */
export const rotate = (items, r) => items.map((_, i) => items[(i + r) % items.length]);
