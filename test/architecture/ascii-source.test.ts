/**
 * src/ is ASCII (a character beyond it written as an escape in code, spelled out in comments):
 * V8 keeps a script with any character beyond Latin-1 as two-byte text, twice the memory of its
 * source for the life of the process, and the bundle puts many modules in one script, so one
 * arrow in one comment doubled a chunk's share of every runtime's heap (bench/README.md).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { srcRoot } from "./import-graph.js";

it("no source file of src/ holds a character beyond ASCII", async () => {
  const files = (await readdir(srcRoot, { recursive: true })).filter(
    (f) => f.endsWith(".ts") || f.endsWith(".cjs"),
  );
  expect(files.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const file of files) {
    const lines = (await readFile(join(srcRoot, file), "utf8")).split("\n");
    lines.forEach((line, i) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, on purpose.
      if (/[^\x00-\x7f]/.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  expect(found).toEqual([]);
});
