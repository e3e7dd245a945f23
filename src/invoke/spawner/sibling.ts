/**
 * A second spawner helper, started by the first one instead of by Node.
 *
 * Node's spawn forks the whole runtime (~45 ms per GB of heap, the event loop blocked
 * meanwhile): the first helper pays that once, a second one for a burst would pay it again in
 * the middle of the burst. So the first helper starts the second as one of its runs (a
 * posix_spawn, flat with the heap), and the second connects back to Node over an abstract unix
 * socket named in its environment, proving with a random token that it is the helper asked
 * for; the control protocol is then the same over the socket. The second helper is the first
 * one's child (PR_SET_PDEATHSIG ties it to it, as the first is tied to Node), and the first
 * reaps it. Should any of this fail, the caller starts the second helper with Node's spawn.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { SpawnerUnavailableError } from "../../errors.js";
import type { SpawnedChild } from "./child.js";
import { SpawnerInstance, type Transport } from "./instance.js";

/** How long the second helper may take to connect. */
const connectTimeoutMs = 5000;

/** The first connection that sends `token` first; others are closed. */
function acceptWithToken(server: Server, token: string): Promise<Socket> {
  const want = Buffer.from(token);
  return new Promise<Socket>((resolve) => {
    server.on("connection", (socket) => {
      socket.on("error", () => {});
      let got = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        got = Buffer.concat([got, chunk]);
        if (got.length < want.length) return;
        socket.removeListener("data", onData);
        socket.pause();
        if (!got.subarray(0, want.length).equals(want)) {
          socket.destroy();
          return;
        }
        // The helper's first frames may have come with the token.
        if (got.length > want.length) socket.unshift(got.subarray(want.length));
        resolve(socket);
      };
      socket.on("data", onData);
    });
  });
}

/** The control channel over the socket; the helper's life is the run's in the first helper. */
function socketTransport(socket: Socket, run: SpawnedChild): Transport {
  return {
    pid: run.pid,
    input: socket,
    output: socket,
    handles: [socket],
    kill: () => {
      try {
        process.kill(run.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      socket.destroy();
    },
    onError: () => {
      // A socket error is followed by its close, handled as the helper's exit.
    },
    onExit: (listener) => {
      socket.once("close", () => listener("connection closed"));
      run.once("close", (code, signal) => listener(signal ?? `code ${code}`));
    },
  };
}

/**
 * Starts a second helper through `first`; resolves once it said HELLO. Rejects (and leaves
 * nothing running) when it cannot.
 */
export async function startSecondHelper(
  first: SpawnerInstance,
  binaryPath: string,
  onGone: (instance: SpawnerInstance) => void,
): Promise<SpawnerInstance> {
  const name = `libcni-spawner-${process.pid}-${randomBytes(8).toString("hex")}`;
  const token = randomBytes(16).toString("hex");
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: `\0${name}` }, () => resolve());
  });
  let run: SpawnedChild | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const accepted = acceptWithToken(server, token);
    run = await first.launchService(binaryPath, [
      `LIBCNI_SPAWNER_SOCKET=${name}`,
      `LIBCNI_SPAWNER_TOKEN=${token}`,
    ]);
    // Losing the first helper is the second's end too, seen as the run's close.
    run.on("error", () => {});
    run.stdin.end(new Uint8Array());
    const started = run;
    const socket = await Promise.race([
      accepted,
      new Promise<never>((_, reject) => {
        started.once("close", () =>
          reject(new SpawnerUnavailableError("spawner: the second helper exited at start")),
        );
        timer = setTimeout(
          () => reject(new SpawnerUnavailableError("spawner: the second helper did not connect")),
          connectTimeoutMs,
        );
        timer.unref();
      }),
    ]);
    const instance = new SpawnerInstance(binaryPath, onGone, socketTransport(socket, started));
    socket.resume();
    await instance.handshake();
    return instance;
  } catch (error) {
    if (run !== undefined) {
      try {
        process.kill(run.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    throw error;
  } finally {
    clearTimeout(timer);
    server.close();
  }
}
