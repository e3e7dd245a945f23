import { describe, expect, it } from "vitest";
import { utf8Encode } from "../../src/internal/bytes.js";
import { ConfigDecoder, configDecoder } from "../../src/version/index.js";

describe("configDecoder (upstream 'Decoding the version of network config')", () => {
  it("returns the version when it is explicit", () => {
    expect(configDecoder.decode(utf8Encode('{ "cniVersion": "4.3.2" }'))).toBe("4.3.2");
    expect(new ConfigDecoder().decode('{ "cniVersion": "4.3.2" }')).toBe("4.3.2");
  });

  it("assumes 0.1.0 when the version is not present", () => {
    expect(configDecoder.decode('{ "not-a-version-field": "foo" }')).toBe("0.1.0");
    expect(configDecoder.decode('{ "cniVersion": "" }')).toBe("0.1.0");
  });

  it("returns a useful error when the config data is malformed", () => {
    expect(() => configDecoder.decode("{{{")).toThrow(
      /^decoding version from network config: invalid character/,
    );
  });
});
