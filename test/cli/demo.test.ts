/**
 * `npm run demo` (examples/demo/demo.mjs), run as a user would: every step is printed with the
 * expected outcome, and nothing is left behind. The real variant is demo-real.system.test.ts.
 */
import { describe, expect, it } from "vitest";
import { expectGone, expectSteps, runDemo } from "./demo-run.js";

describe("npm run demo", () => {
  it("takes the example network through every step with the example plugins; the caller's CNI env is ignored", async () => {
    const r = await runDemo([]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectSteps(r.stdout);
    expect(r.stdout).toContain('"address": "10.22.0.2/24"');
    expect(r.stdout).toContain('"address": "10.22.0.3/24"');
    expect(r.stdout).toMatch(/0-hello-net\/hello\/10\.22\.0\.2: cnitool-[0-9a-f]{20} eth0\n/);
    expect(r.stdout).toContain(
      '"mappings":[{"containerPort":80,"hostPort":8080,"protocol":"tcp"}]',
    );
    expect(r.stdout).toMatch(/# after gc: plugin state under \$DEMO\/state\n {2}\(none left\)\n/);
    expect(r.stdout).toMatch(/\ndemo done \(example plugins\); temporary files removed\n$/);
    await expectGone(r.stdout);
  }, 300_000);
});
