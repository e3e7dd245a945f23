import { describe, expect, it } from "vitest";
import * as utils from "../../src/utils/index.js";

describe("libcni/utils public API", () => {
  it("exports the three validators and Go's whitespace test", () => {
    expect(Object.keys(utils).sort()).toEqual([
      "GO_SPACE_CODE_POINTS",
      "isGoSpace",
      "validateContainerID",
      "validateInterfaceName",
      "validateNetworkName",
    ]);
  });

  it("freezes the whitespace list", () => {
    expect(Object.isFrozen(utils.GO_SPACE_CODE_POINTS)).toBe(true);
  });
});
