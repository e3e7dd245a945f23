import { describe, expect, it } from "vitest";
import * as utils from "../../src/utils/index.js";

describe("libcni/utils public API", () => {
  it("exports the three validators, and nothing else", () => {
    expect(Object.keys(utils).sort()).toEqual([
      "validateContainerID",
      "validateInterfaceName",
      "validateNetworkName",
    ]);
  });
});
