/**
 * The error classes: upstream's messages, the fields callers match on, and instanceof across
 * copies of the library (the brand), which must not leak to unrelated classes.
 */
import { describe, expect, it } from "vitest";
import {
  ConfError,
  ConfFileError,
  NoConfigsFoundError,
  NotFoundError,
} from "../../src/errors/index.js";

describe("conf errors", () => {
  it("carry upstream's messages and their fields", () => {
    const notFound = new NotFoundError("/etc/cni/net.d", "net");
    expect(notFound.message).toBe(`no net configuration with name "net" in /etc/cni/net.d`);
    expect(notFound).toMatchObject({ dir: "/etc/cni/net.d", networkName: "net" });
    expect(notFound.name).toBe("NotFoundError");
    const none = new NoConfigsFoundError("/etc/cni/net.d");
    expect(none.message).toBe("no net configurations found in /etc/cni/net.d");
    expect(none.dir).toBe("/etc/cni/net.d");
  });

  it("are all ConfErrors and Errors, and distinct from each other", () => {
    const notFound = new NotFoundError("d", "n");
    const none = new NoConfigsFoundError("d");
    expect(notFound).toBeInstanceOf(ConfError);
    expect(notFound).toBeInstanceOf(Error);
    expect(none).toBeInstanceOf(ConfError);
    expect(notFound).not.toBeInstanceOf(NoConfigsFoundError);
    expect(none).not.toBeInstanceOf(NotFoundError);
    expect(new ConfError("x")).not.toBeInstanceOf(NotFoundError);
    expect(new Error("x")).not.toBeInstanceOf(ConfError);
  });

  it("recognise an error from another copy of the library by its brand", () => {
    // What another copy's NotFoundError looks like: a different class with the same brands.
    const foreign = Object.assign(new Error("no net configuration"), {});
    Object.defineProperty(foreign, Symbol.for("libcni.error.ids"), {
      value: ["LIBCNI_ERR_CONF_NOT_FOUND", "LIBCNI_ERR_CONF", "LIBCNI_ERR"],
    });
    expect(foreign).toBeInstanceOf(ConfError);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).not.toBeInstanceOf(NoConfigsFoundError);
  });

  it("keep the prototype check for a caller's own subclass", () => {
    class Mine extends NotFoundError {}
    expect(new Mine("d", "n")).toBeInstanceOf(Mine);
    expect(new NotFoundError("d", "n")).not.toBeInstanceOf(Mine);
  });

  it("ConfFileError.wrap names the file once, keeps the cause, passes a named one through", () => {
    const cause = new ConfError("error parsing configuration list: no name");
    const wrapped = ConfFileError.wrap("/d/a.conflist", cause);
    expect(wrapped.message).toBe("error parsing configuration list: no name (file /d/a.conflist)");
    expect(wrapped.cause).toBe(cause);
    expect(wrapped.file).toBe("/d/a.conflist");
    expect(ConfFileError.wrap("/d/other", wrapped)).toBe(wrapped);
  });
});
