/**
 * checkPlugin's own refusals and its stop: a request that leaves no version to check is a usage
 * error, not a pass; an aborted check rejects instead of reporting every rule failed.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../src/errors/index.js";
import { checkPlugin } from "../../../src/testing/conformance/index.js";

const loopback = "/usr/lib/cni/loopback";

describe("checkPlugin", () => {
  it("refuses versions the plugin does not claim instead of passing on no rule", async () => {
    const error = await checkPlugin(loopback, { versions: ["1.1.0"] }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/no spec version to check with/);
  });

  it("refuses a config that is not JSON with an InvalidArgumentError", async () => {
    await expect(checkPlugin(loopback, { config: "{not json" })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });

  it("rejects with the caller's reason when aborted, not with a report of failures", async () => {
    const controller = new AbortController();
    const check = checkPlugin(loopback, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop the check")), 300);
    await expect(check).rejects.toThrow("stop the check");
  });
});
