/**
 * The machine's floor for event-loop figures: a separate, idle Node process measuring its own
 * event-loop delay (`monitorEventLoopDelay`, resolution 1 ms, as the measured workers do) over
 * a window the driver opens and closes. On a loaded 2-core machine the run-queue waits alone
 * show as loop delay; a worker's figure means something only next to this one.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const source = `const {monitorEventLoopDelay}=require("node:perf_hooks");let h;
require("node:readline").createInterface({input:process.stdin}).on("line",(l)=>{
  if(l==="s"){h=monitorEventLoopDelay({resolution:1});h.enable();return;}
  h.disable();console.log(JSON.stringify({p99:h.percentile(99),max:h.max}));});`;

export class IdleProbe {
  constructor() {
    // Started long before the first window: its own start is never in one.
    this.child = spawn(process.execPath, ["-e", source], { stdio: ["pipe", "pipe", "inherit"] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.exited = new Promise((resolve) => this.child.once("exit", resolve));
  }
  /** Opens a window. */
  start() {
    this.child.stdin.write("s\n");
  }
  /** Closes it: the delay's p99 and max over it, in ns. */
  async end() {
    this.child.stdin.write("e\n");
    const { value, done } = await this.lines.next();
    if (done) throw new Error("the idle probe exited");
    return JSON.parse(value);
  }
  async close() {
    this.child.stdin.end();
    await this.exited;
  }
}
