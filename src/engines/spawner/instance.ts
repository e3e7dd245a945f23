/**
 * One running spawner helper and the runs in flight on it.
 *
 * The helper is started with Node's spawn (one fork, once), talks the protocol of
 * protocol.ts over its stdin and stdout, and is unref'd while no run is in flight, so it
 * never keeps the process alive. When it exits (crash, kill, broken protocol) every run in
 * flight fails with a {@link SpawnerExitedError} and its plugin's process group is SIGKILLed,
 * so nothing it started runs on unsupervised.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Duplex, Readable, Writable } from "node:stream";
import { SpawnerExitedError, SpawnerUnavailableError } from "../../errors/spawner.js";
import { debug } from "../../internal/diagnostics.js";
import { errnoName } from "../../internal/errno.js";
import { messageOf } from "../../internal/error-message.js";
import { endGroups } from "../../internal/process-group.js";
import { type LaunchRun, netnsEntryError } from "../start/launcher.js";
import { SpawnedChild } from "./child.js";
import { FileChannel } from "./files.js";
import {
  encodeEmpty,
  encodeNetnsRequest,
  encodeRun,
  encodeStdin,
  type Frame,
  FrameReader,
  maxOutputCap,
  protocolVersion,
  Rep,
  Req,
} from "./protocol.js";

/** An errno error as Node's spawn makes it (`code`, negative `errno`, `syscall`, `path`). */
function spawnError(path: string, errno: number): NodeJS.ErrnoException {
  const code = errnoName(errno);
  const syscall = `spawn ${path}`;
  return Object.assign(new Error(`${syscall} ${code}`), { code, errno: -errno, syscall, path });
}

interface Starting {
  path: string;
  /** The network namespace the run starts in, if not the helper's. */
  netns: string | undefined;
  /** The run's stdin went with its RUN frame. */
  stdinSent: boolean;
  resolve(child: SpawnedChild): void;
  reject(error: unknown): void;
}

interface Pending<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

// How long the helper may leave this process without a word: its HELLO (else it cannot run
// here), or any frame once a start it left unanswered was given up (else it is stuck).
const answerWaitMs = 5000;

/**
 * Calls `expired` once a wait of answerWaitMs has run its course. A wait that ends a second late
 * is waited again, for 30 s at most: this process was held, or stopped with the helper (Ctrl-Z
 * on their group), and what the helper sent meanwhile may be in the pipe, unread.
 */
function afterWait(expired: () => void, since = process.uptime()): void {
  const due = process.uptime() + answerWaitMs / 1000;
  const late = () => process.uptime() - due >= 1 && process.uptime() - since < 30;
  setTimeout(() => (late() ? afterWait(expired, since) : expired()), answerWaitMs).unref();
}

type Handle = { ref(): void; unref(): void };

function isHandle(h: unknown): h is Handle {
  const x = h as Partial<Handle> | null;
  return typeof x?.ref === "function" && typeof x?.unref === "function";
}

function isDuplex(s: unknown): s is Duplex {
  const d = s as Partial<Duplex> | null | undefined;
  return typeof d?.write === "function" && typeof d?.on === "function";
}

/** A spawner helper process, started by Node's spawn (one fork of the runtime). */
export class SpawnerInstance {
  private readonly child: ChildProcess;
  private readonly input: Writable;
  /** What holds the event loop while runs are in flight (unref'd otherwise). */
  private readonly handles: readonly Handle[];
  private readonly reader = new FrameReader();
  private readonly starting = new Map<number, Starting>();
  private readonly running = new Map<number, SpawnedChild>();
  // PIN and UNPIN requests waiting for their DONE.
  private readonly requests = new Map<number, Pending<number>>();
  private nextId = 1;
  private refs = 0;
  /** Chunks read from the helper: a stopped helper's count stands still. */
  private heard = 0;
  private gone: Error | undefined;
  /** The helper's file channel; undefined where the runtime could not give it an fd 3. */
  readonly files: FileChannel | undefined;
  /** Settles once the helper said HELLO (resolves) or failed to (rejects). */
  readonly ready: Promise<void>;
  /** The helper's pid (tests kill it). */
  readonly pid: number | undefined;

  constructor(
    readonly binaryPath: string,
    private readonly onGone: (instance: SpawnerInstance) => void,
  ) {
    let hello: (() => void) | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      hello = resolve;
      this.failHello = reject;
    });
    // Handled by whoever awaits it; a helper that dies later is not an unhandled rejection.
    this.ready.catch(() => {});
    const noHello = new SpawnerUnavailableError(`spawner ${binaryPath}: no handshake`);
    afterWait(() => this.greeted || this.fail(noHello));

    // Over its stdin and stdout; `io`: its fd 3, a socket pair, is the file channel (files.ts).
    const child = spawn(binaryPath, [String(process.pid), "io"], {
      stdio: ["pipe", "pipe", "ignore", "pipe"],
    });
    this.child = child;
    this.pid = child.pid;
    this.input = child.stdin as Writable;
    const output = child.stdout as Readable;
    const socket = isDuplex(child.stdio[3]) ? child.stdio[3] : undefined;
    // The pipes are net.Sockets, which hold the event loop on their own. (Bun's stdin pipe has
    // no ref/unref: what a runtime lacks is left out.)
    this.handles = ([child, child.stdin, child.stdout, socket] as unknown[]).filter(isHandle);
    for (const h of this.handles) h.unref();
    this.files =
      socket === undefined
        ? undefined
        : new FileChannel(socket, { retain: () => this.retain(), release: () => this.release() });

    child.on("error", (error) => {
      this.fail(
        new SpawnerUnavailableError(`spawner ${binaryPath}: ${error.message}`, { cause: error }),
      );
    });
    this.input.on("error", () => {}); // EPIPE when the helper died; its exit is handled below.
    output.on("data", (chunk: Buffer) => {
      this.heard++;
      try {
        this.reader.push(chunk, (frame) => {
          if (frame.type === Rep.hello) {
            if (frame.id !== protocolVersion) {
              throw new SpawnerUnavailableError(
                `spawner ${binaryPath}: protocol ${frame.id}, expected ${protocolVersion}`,
              );
            }
            debug("spawner %s started (pid %d)", binaryPath, this.pid);
            this.greeted = true;
            hello?.();
          } else this.dispatch(frame);
        });
      } catch (error) {
        this.kill();
        const text = messageOf(error);
        this.fail(new SpawnerExitedError(`spawner ${binaryPath}: ${text}`, { cause: error }));
      }
    });
    // "close", not "exit": the helper's last frames (a STARTED among them) are read first.
    child.on("close", (code, signal) => {
      this.fail(
        new SpawnerExitedError(`spawner ${binaryPath} exited (${signal ?? `code ${code}`})`),
      );
    });
  }

  private failHello: (error: Error) => void = () => {};
  private greeted = false;

  /** Waits for the HELLO, keeping the process alive meanwhile (as a pending run would). */
  async handshake(): Promise<void> {
    this.retain();
    await this.ready.finally(() => this.release());
  }

  /** How many runs are starting or running (a second helper started here is not one). */
  get inFlight(): number {
    return this.starting.size + this.running.size;
  }

  /** False once the helper is gone. */
  get alive(): boolean {
    return this.gone === undefined;
  }

  /**
   * Starts `path` with `env` in the helper; resolves once it runs, with its pid. With `run`,
   * its stdin goes with the start, in the same write (the child's `stdin.end` is then a
   * no-op), and the helper holds its output within the run's cap until it exits.
   */
  launch(path: string, env: readonly string[], run?: LaunchRun): Promise<SpawnedChild> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const id = this.takeId();
    // A start given up on, left unanswered by a helper silent for a whole wait, kills it (the caller
    // settles); checked after one more poll of its pipe: a reply read late is no silence.
    const signal = run?.signal;
    const onAbort = () => {
      const heard = this.heard;
      const check = () => this.starting.has(id) && (this.heard === heard ? this.kill() : onAbort());
      afterWait(() => setImmediate(check));
    };
    const started = new Promise<SpawnedChild>((resolve, reject) => {
      const stdinSent = run !== undefined;
      this.starting.set(id, { path, netns: run?.netns, resolve, reject, stdinSent });
      this.retain();
      this.input.write(
        encodeRun(id, path, env, {
          outputCap: run?.maxOutputBytes ?? maxOutputCap,
          stdin: run?.stdin,
          args: run?.args,
          netns: run?.netns,
        }),
      );
    });
    if (signal === undefined) return started;
    const settled = () => signal.removeEventListener("abort", onAbort);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    started.then(settled, settled);
    return started;
  }

  /**
   * PIN (`pin`: a new network namespace bind-mounted on the empty file `path`, its directory
   * made a shared mount first with `shareDir`) or UNPIN (the mount at `path` detached): done in
   * the helper, which never forks for it. Resolves to the errno (0: done).
   */
  netnsRequest(pin: boolean, path: string, shareDir = false): Promise<number> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const id = this.takeId();
    return new Promise<number>((resolve, reject) => {
      this.requests.set(id, { resolve, reject });
      this.retain();
      this.input.write(encodeNetnsRequest(pin ? Req.pin : Req.unpin, id, path, shareDir));
    });
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffffffff ? 1 : this.nextId + 1;
    return id;
  }

  /** Closes the helper's stdin: it exits at once, its runs' plugins (if any) SIGKILLed. */
  stop(): void {
    this.input.end();
  }

  /** Kills the helper (tests: a crash mid-run). */
  kill(): void {
    this.child.kill("SIGKILL");
  }

  private dispatch(frame: Frame): void {
    const { type, id, payload } = frame;
    if (type === Rep.done) {
      const request = this.requests.get(id);
      if (request === undefined) return;
      this.requests.delete(id);
      this.release();
      request.resolve(payload.length >= 4 ? Buffer.from(payload).readUInt32LE(0) : 0);
      return;
    }
    if (type === Rep.started || type === Rep.failed) {
      const start = this.starting.get(id);
      if (start === undefined) return;
      this.starting.delete(id);
      const value = payload.length >= 4 ? Buffer.from(payload).readUInt32LE(0) : 0;
      if (type === Rep.failed) {
        this.release();
        const inNetns = payload.length >= 8 && Buffer.from(payload).readUInt32LE(4) === 1;
        start.reject(
          inNetns && start.netns !== undefined
            ? netnsEntryError(start.netns, errnoName(value))
            : spawnError(start.path, value),
        );
        return;
      }
      const child = new SpawnedChild(
        value,
        id,
        this,
        () => {
          if (this.running.delete(id)) this.release();
        },
        start.stdinSent,
      );
      this.running.set(id, child);
      start.resolve(child);
      return;
    }
    const child = this.running.get(id);
    if (child === undefined) return;
    if (type === Rep.stdout) child.onOutput("stdout", payload);
    else if (type === Rep.stderr) child.onOutput("stderr", payload);
    else if (type === Rep.eof) child.onEof(payload[0] === 1 ? "stdout" : "stderr");
    else if (type === Rep.exit) child.onExit(Buffer.from(payload).readInt32LE(0));
  }

  /** ChildLink: the run's stdin bytes, then the end of its stdin. */
  sendStdin(id: number, data: Uint8Array): void {
    if (this.gone === undefined) this.input.write(encodeStdin(id, data));
  }

  /** ChildLink: stop relaying the run's pipes. */
  sendClose(id: number): void {
    if (this.gone === undefined) this.input.write(encodeEmpty(Req.close, id));
  }

  private fail(reason: Error): void {
    if (this.gone !== undefined) return;
    // Before its HELLO, whatever went wrong means this binary cannot serve here.
    const error =
      this.greeted || (reason as Partial<SpawnerUnavailableError>).id === SpawnerUnavailableError.id
        ? reason
        : new SpawnerUnavailableError(
            `${reason.message} before its handshake: it cannot run here`,
            { cause: reason },
          );
    this.gone = error;
    this.failHello(error);
    this.onGone(this);
    if (this.inFlight > 0) debug("spawner %s: %s", this.binaryPath, error.message);
    // A start the helper never answered: if its plugin was started at all, it never had its
    // stdin (the helper writes it only after the STARTED went out, and every frame it sent was
    // read before this): nothing ran that a retry could repeat, which the error says.
    const notStarted =
      error instanceof SpawnerExitedError
        ? new SpawnerExitedError(`${error.message} before the plugin started`, {
            cause: error.cause,
            pluginStarted: false,
          })
        : error;
    for (const start of this.starting.values()) start.reject(notStarted);
    this.starting.clear();
    for (const request of this.requests.values()) request.reject(error);
    this.requests.clear();
    this.files?.fail(error);
    // Its plugins were the helper's children: they are stopped with their groups (the helper
    // does it too when it can) and known dead before their runs fail, so that nothing undoes a
    // run that is still going.
    const lost = [...this.running.values()];
    this.running.clear();
    if (lost.length > 0) {
      const pids = lost.map((child) => child.pid);
      const reaped = new Set(lost.filter((child) => child.exit !== undefined).map((c) => c.pid));
      void endGroups(pids, reaped).then(() => {
        for (const child of lost) child.onLost(error);
      });
    }
    this.refs = 0;
    for (const h of this.handles) h.unref();
  }

  // The helper keeps the process alive exactly while it has runs in flight, as a direct
  // child process would.
  private retain(): void {
    if (this.refs++ === 0) for (const h of this.handles) h.ref();
  }

  private release(): void {
    if (this.refs > 0 && --this.refs === 0) for (const h of this.handles) h.unref();
  }
}
