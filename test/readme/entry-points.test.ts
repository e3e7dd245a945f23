/**
 * The README lists every entry point a user can import, and nothing else: its "Entry points"
 * table names the same subpaths as package.json's `exports` (`./package.json` aside). Adding or
 * removing an export without the README's line, or a README line without its export, fails.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportedEntryPoints, readmeEntryPoints } from "./markdown.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

describe("the README's entry points", () => {
  it("are package.json's exports, each once", async () => {
    const readme = await readFile(join(repo, "README.md"), "utf8");
    const listed = readmeEntryPoints(readme);
    const exported = await exportedEntryPoints(repo);
    expect(exported.length).toBeGreaterThanOrEqual(10);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
    expect([...listed].sort()).toEqual([...exported].sort());
  });

  it("each has a line saying what it holds", async () => {
    const readme = await readFile(join(repo, "README.md"), "utf8");
    const rows = readme
      .split("\n")
      .filter((l) => /^\|\s*`libcni[^`]*`\s*\|/.test(l))
      .map((l) => l.split("|").map((cell) => cell.trim()));
    // A row for each export, no fewer: rows that match nothing would check nothing.
    const exported = await exportedEntryPoints(repo);
    expect(exported.length).toBeGreaterThanOrEqual(10);
    expect(rows.map(([, name]) => name.replaceAll("`", "")).sort()).toEqual([...exported].sort());
    for (const [, name, holds] of rows) expect(holds, name).toMatch(/\w{3,}/);
  });
});

describe("readmeEntryPoints", () => {
  it("reads the first column of the table under the heading, and only there", () => {
    const md = [
      "## Entry points",
      "",
      "| entry point | what it holds |",
      "| --- | --- |",
      "| `libcni` | the verbs |",
      "| `libcni/netns` | namespaces |",
      "",
      "## Next",
      "| `libcni/elsewhere` | not listed |",
    ].join("\n");
    expect(readmeEntryPoints(md)).toEqual(["libcni", "libcni/netns"]);
    expect(readmeEntryPoints("# no list")).toEqual([]);
  });
});
