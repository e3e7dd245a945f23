/**
 * The pod layer throws the library's own classes (src/errors/), never a plain Error: a caller
 * tells them apart by `id`, and one `catch` tells the library's errors from a bug. Read from
 * the text of src/runtime, as import-cycles.test.ts reads src/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const runtimeDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/runtime");

describe("src/runtime", () => {
  it("throws no plain Error, TypeError or RangeError", () => {
    const plain = /\bnew (?:Error|TypeError|RangeError)\(/;
    const found = readdirSync(runtimeDir)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) =>
        readFileSync(join(runtimeDir, name), "utf8")
          .split("\n")
          .map((line, i) => [`${name}:${i + 1}`, line] as const)
          .filter(([, line]) => plain.test(line))
          .map(([where, line]) => `${where}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});
