// printResult (upstream types.PrintResult): convert to the config's version, then print as
// upstream's Print does (4-space indent, no trailing newline).
import { describe, expect, it } from "vitest";
import { printResult } from "../../src/skel/index.js";
import { createResult } from "../../src/types/index.js";
import { Collector } from "./harness.js";

const result100 = `{"cniVersion":"1.0.0","ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1"}],"dns":{"nameservers":["8.8.8.8"]}}`;

describe("printResult", () => {
  it("prints the result in the requested version, indented by 4 spaces, no newline", async () => {
    const out = new Collector();
    await printResult(createResult(result100), "0.4.0", out);
    expect(out.text()).toBe(
      [
        "{",
        '    "cniVersion": "0.4.0",',
        '    "ips": [',
        "        {",
        '            "version": "4",',
        '            "address": "10.1.2.3/24",',
        '            "gateway": "10.1.2.1"',
        "        }",
        "    ],",
        '    "dns": {',
        '        "nameservers": [',
        '            "8.8.8.8"',
        "        ]",
        "    }",
        "}",
      ].join("\n"),
    );
  });

  it("prints a 1.x result with sorted keys", async () => {
    const out = new Collector();
    await printResult(createResult(result100), "1.1.0", out);
    expect(JSON.parse(out.text())).toEqual({
      cniVersion: "1.1.0",
      dns: { nameservers: ["8.8.8.8"] },
      ips: [{ address: "10.1.2.3/24", gateway: "10.1.2.1" }],
    });
    expect(out.text().indexOf('"dns"')).toBeLessThan(out.text().indexOf('"ips"'));
  });

  it("rejects, printing nothing, when the result cannot be expressed in that version", async () => {
    const out = new Collector();
    await expect(printResult(createResult(result100), "9.9.9", out)).rejects.toThrow(/9\.9\.9/);
    expect(out.text()).toBe("");
  });

  it("writes to the process's stdout by default", async () => {
    const writes: string[] = [];
    const original = process.stdout.write;
    process.stdout.write = ((chunk: string, cb?: () => void) => {
      writes.push(chunk);
      cb?.();
      return true;
    }) as typeof process.stdout.write;
    try {
      await printResult(createResult(result100), "1.0.0");
    } finally {
      process.stdout.write = original;
    }
    expect(writes.join("")).toContain('"cniVersion": "1.0.0"');
  });
});
