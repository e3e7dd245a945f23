/**
 * Each result module registers its converters when it loads (as Go's init()); importing the 1.x
 * module alone, before anything else, must register every family it converts through.
 */
import { describe, expect, it } from "vitest";
import { parseCIDR } from "../../src/types/cidr.js";
import { Result100 } from "../../src/types/v100.js";

describe("import order", () => {
  it("converts when the 1.x module is imported first", () => {
    const r = new Result100({ cniVersion: "1.1.0", ips: [{ address: parseCIDR("10.0.0.2/24") }] });
    expect(r.getAsVersion("0.2.0").getAsVersion("0.4.0").getAsVersion("1.0.0").version()).toBe(
      "1.0.0",
    );
  });
});
