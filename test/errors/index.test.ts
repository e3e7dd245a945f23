import { describe, expect, it } from "vitest";
import { LibcniError, WrappedError } from "../../src/errors/index.js";
import { messageOf } from "../../src/internal/error-message.js";

class AError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_TEST_A";
}
class BError extends AError {
  static override readonly id: string = "LIBCNI_ERR_TEST_B";
}
class CallersOwn extends BError {}

describe("LibcniError", () => {
  it("carries the class's id and name on each instance", () => {
    const b = new BError("boom");
    expect(b.id).toBe("LIBCNI_ERR_TEST_B");
    expect(b.name).toBe("BError");
    expect(new CallersOwn("x").id).toBe("LIBCNI_ERR_TEST_B");
  });

  it("answers instanceof along the class chain by brand", () => {
    const b = new BError("boom");
    expect(b instanceof BError).toBe(true);
    expect(b instanceof AError).toBe(true);
    expect(b instanceof LibcniError).toBe(true);
    expect(b instanceof Error).toBe(true);
    expect(new AError("a") instanceof BError).toBe(false);
  });

  it("recognises an error from another copy of the library (same ids, other classes)", () => {
    const other = Object.create(Error.prototype) as Error;
    Object.defineProperty(other, Symbol.for("libcni.error.ids"), {
      value: ["LIBCNI_ERR_TEST_B", "LIBCNI_ERR_TEST_A", "LIBCNI_ERR"],
    });
    expect(other instanceof BError).toBe(true);
    expect(other instanceof LibcniError).toBe(true);
    expect({} instanceof LibcniError).toBe(false);
  });

  it("keeps the prototype check for a caller's subclass without an id", () => {
    expect(new BError("b") instanceof CallersOwn).toBe(false);
    expect(new CallersOwn("c") instanceof CallersOwn).toBe(true);
  });

  it("wraps like Go's %w: context, cause's message, cause kept", () => {
    const inner = new AError("inner");
    const w = new WrappedError("failed to x", inner);
    expect(w.message).toBe("failed to x: inner");
    expect(w.cause).toBe(inner);
    expect(messageOf("plain")).toBe("plain");
  });

  it("prints any thrown value, never throwing: a null-prototype object, a throwing getter", () => {
    const bare = Object.create(null);
    expect(messageOf(bare)).toBe("(a value that cannot be printed)");
    const getter = new Error("x");
    Object.defineProperty(getter, "message", {
      get() {
        throw new Error("no");
      },
    });
    expect(messageOf(getter)).toBe("(a value that cannot be printed)");
    expect(new WrappedError("ctx", bare).cause).toBe(bare);
  });
});
