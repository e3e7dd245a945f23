// errnoName: the spawner helper answers with bare errno numbers; netns and the spawner name them
// as Node's errors do (`code`).
import { constants } from "node:os";
import { describe, expect, it } from "vitest";
import { errnoName } from "../../src/internal/errno.js";

describe("errnoName", () => {
  it("names an errno number as Node's errors do in `code`", () => {
    expect(errnoName(constants.errno.EPERM)).toBe("EPERM");
    expect(errnoName(constants.errno.ENOENT)).toBe("ENOENT");
    expect(errnoName(constants.errno.EINVAL)).toBe("EINVAL");
  });

  it("gives E<n> for a number the platform does not name", () => {
    expect(errnoName(99999)).toBe("E99999");
  });
});
