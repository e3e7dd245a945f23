/** The workers' protocol: one JSON command per stdin line, one JSON answer per stdout line. */
import { createInterface } from "node:readline";

/**
 * Answers each command `{ op, ... }` with what `ops[op]` resolves to, or `{ error }`, in order,
 * until stdin ends.
 */
export async function serveOps(ops) {
  for await (const line of createInterface({ input: process.stdin })) {
    let answer;
    try {
      const c = JSON.parse(line);
      const op = ops[c.op];
      if (op === undefined) throw new Error(`unknown op ${c.op}`);
      answer = await op(c);
    } catch (error) {
      answer = { error: String(error?.stack ?? error) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}
