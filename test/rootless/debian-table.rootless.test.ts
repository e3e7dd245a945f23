/**
 * The Debian table of docs/conformance.md stays true, and is the same without root:
 * regenerated here by a user who is not root, through `cnitool rootless` (the conformance
 * checker on Debian's containernetworking-plugins, through scripts/conformance-table.mjs and
 * the built dist/), it must equal the committed file byte for byte. The committed file may be
 * made as root or rootless: the two runs write the same bytes (the filesystem under /run/netns,
 * ext4 or tmpfs, is stripped from the evidence), so this run replaces the root one the system
 * tier made. The run is deterministic (fresh namespaces and host-local data per plugin;
 * evidence stripped of pids and hashes), so any difference is news: a plugin, the checker or a
 * config changed, or a failure lost its note (the script itself refuses a failure without a
 * note, or a note without its failure). Needs Debian's plugins in /usr/lib/cni and
 * `npm run build`.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repo, requireNonRoot, rootless } from "./helpers.js";

it("docs/conformance.md is what the checker finds in Debian's plugins, rootless", async () => {
  requireNonRoot();
  const dir = await mkdtemp(join(tmpdir(), "libcni-debian-table-"));
  try {
    const out = join(dir, "conformance.md");
    const { code, stderr } = await rootless([
      process.execPath,
      join(repo, "scripts/conformance-table.mjs"),
      "--out",
      out,
    ]);
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
    const fresh = await readFile(out, "utf8");
    const committed = await readFile(join(repo, "docs/conformance.md"), "utf8");
    // Regenerate with `npm run build && node scripts/conformance-table.mjs` (root) or
    // `cnitool rootless -- node scripts/conformance-table.mjs` when this fails.
    expect(fresh).toBe(committed);
    // The issues the table must show (known upstream bugs, with their links).
    expect(committed).toContain("https://github.com/containernetworking/plugins/issues/819");
    expect(committed).toContain("https://github.com/containernetworking/plugins/issues/1221");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 900_000);
