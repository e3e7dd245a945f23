/*
 * libcni-spawner: starts plugin executables for a Node process with posix_spawn.
 *
 * Node 20 starts every child with a plain fork() on its main thread, which copies the page
 * tables of the whole runtime (milliseconds per start, growing with the heap). This helper is
 * started once, is small, and starts each plugin with posix_spawn (clone(CLONE_VM|CLONE_VFORK)
 * in glibc and musl alike), so a start costs the same whatever the size of the runtime.
 *
 * One poll loop, many runs in flight. The plugin's stdin, stdout and stderr are pipes held
 * here; their bytes are relayed over the control pipe (Node cannot receive fds over a unix
 * socket outside its own IPC channel, and for CNI's small payloads a relay costs less than the
 * round trips fd passing would add).
 *
 * Protocol (both directions), little-endian:
 *   u32 length of what follows, u8 type, u32 run id, payload
 * Requests (fd 0):
 *   RUN       u32 path length, path, u32 env count, then per entry u32 length, bytes, then
 *             u32 output cap: the library's limit on each of stdout and stderr; then,
 *             optionally, u32 arg count and per arg u32 length, bytes (argv[1..]), and
 *             u32 length, path of a network namespace to start the process in (0: this one)
 *   STDIN     bytes for the plugin's stdin
 *   STDIN_END close the plugin's stdin once what was sent is written
 *   CLOSE     stop reading the plugin's stdout and stderr (a grandchild holds them)
 *   PIN       u8 1 to make the path's directory a shared mount first (as `ip netns add`
 *             does for /run/netns), u32 length, path of an existing empty file: a new
 *             network namespace is bind-mounted on it
 *   UNPIN     u32 length, path: unmounted lazily (MNT_DETACH), as `ip netns del` does, but
 *             never through a symbolic link (UMOUNT_NOFOLLOW: a link is EINVAL, not a mount)
 * Replies (fd 1):
 *   HELLO     id = protocol version, u32 pid of the helper
 *   STARTED   u32 pid of the plugin (leader of a new session, so of its own process group)
 *   FAILED    u32 errno of the start (ENOENT, EACCES, ETXTBSY, ...); then u32 1 when the
 *             run's network namespace could not be entered (the errno is of that)
 *   STDOUT    bytes the plugin wrote to stdout
 *   STDERR    bytes the plugin wrote to stderr
 *   EOF       u8 1 (stdout) or 2 (stderr): that pipe is closed
 *   EXIT      i32 the raw wait status of the plugin, once reaped
 *   DONE      u32 errno of a PIN or UNPIN (0: done)
 *
 * Network namespaces are entered and made here, not in a child: the helper is single-threaded,
 * so it can setns() into a run's namespace around posix_spawn (the child inherits it), or
 * unshare() one and bind-mount it, and then setns() back into its own, which it holds open.
 *
 * Replies are gathered over one turn of the poll loop and written at its end, in one write:
 * the library wakes once per turn, not once per frame. While a plugin runs, its output is held
 * here (up to 64 KiB per pipe, and only while what it wrote is within the output cap, past which
 * the library stops it) and relayed with its EOFs and EXIT once it is reaped: its pipes are
 * read to their end first (the kernel closes a process's fds before its parent is told of the
 * exit), and an EOF seen before the exit is held for it too. So a plugin run costs the
 * library two wakeups (STARTED, then the end), where each of its frames would be one. The
 * library sends RUN, STDIN and STDIN_END in one write.
 *
 * File requests (protocol 5), on fd 3 when the helper is started with `io` after the parent's
 * pid (a second control channel, a socket pair both ways, same framing): served by threads of
 * their own (a reader and a pool of 4), so a large or slow read never holds a plugin run back.
 * (Durable writes were measured here too and stay in the library: bench/README.md.)
 *   READ      u8 flags (1: O_NOFOLLOW), u32 most bytes per file, u32 length, directory, u32
 *             count, then per name u32 length, name: every name's regular file read whole.
 * Replies (fd 3):
 *   FILE      u32 index of the name, u8 0 and the file's bytes; or u8 1: not read here (not a
 *             regular file, larger than the most, any error): the library reads it itself
 *   READ_END  every name of the READ was answered
 *
 * The helper dies with its parent (PR_SET_PDEATHSIG as SIGTERM, read from its signalfd, and EOF
 * of fd 0), and its plugins die with it: whatever ends it first SIGKILLs the process group of
 * every plugin still running. A run's stdin is written only after its STARTED went out. It reaps
 * every child it started (SIGCHLD through a signalfd). Every fd it opens is close-on-exec, and
 * fds it inherited beyond 0-2 are closed at start, so a plugin gets exactly its three pipes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

#define PROTOCOL_VERSION 5

enum { R_RUN = 1, R_STDIN = 2, R_STDIN_END = 3, R_CLOSE = 4, R_PIN = 5, R_UNPIN = 6 };
enum { A_HELLO = 0, A_STARTED = 1, A_FAILED = 2, A_STDOUT = 3, A_STDERR = 4, A_EOF = 5, A_EXIT = 6, A_DONE = 7 };
enum { F_READ = 17 };
enum { F_FILE = 17, F_READ_END = 18 };
#define IO_FD 3

#define MAX_RUNS 256
#define MAX_FRAME (256u * 1024u * 1024u)
#define READ_CHUNK 65536
#define HOLD_MAX 65536 /* output held per pipe while the plugin runs */
#define OUT_FLUSH (256u * 1024u) /* replies gathered before a turn's end forces a write */

extern char **environ;

struct run {
	uint32_t id;
	pid_t pid;
	int in, out, err; /* -1 once closed */
	int stdin_end;    /* STDIN_END received: close `in` once the buffer is written */
	int exited;
	int eof_held[2];  /* stdout, stderr closed before the exit: relayed with EXIT (reap) */
	char *buf;        /* bytes waiting for the plugin's stdin */
	size_t len, off;
	uint32_t cap;     /* the library's output cap per pipe */
	struct { char *bytes; size_t len; uint64_t total; } held[2]; /* stdout, stderr */
};

static struct run runs[MAX_RUNS];
static int self_ns = -1; /* the helper's own network namespace, to come back to (opened on first use) */

/* Opens the helper's own network namespace once, before it ever leaves it; an errno on failure. */
static int own_netns(void) {
	if (self_ns >= 0) return 0;
	self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	return self_ns >= 0 ? 0 : errno;
}
static int nruns;
static char chunk[READ_CHUNK];

static void end_runs(void);

/* Whatever ends the helper ends the plugins it started: a plugin left running with nobody to
 * report to could finish an ADD after its runtime undid it. */
static void die(void) { end_runs(); _exit(1); }

static void put32(unsigned char *p, uint32_t v) {
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff; p[2] = (v >> 16) & 0xff; p[3] = (v >> 24) & 0xff;
}

static uint32_t get32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Writes all of iov to the control pipe; waits on it when it is full. */
static void write_all(struct iovec *iov, int n) {
	while (n > 0) {
		ssize_t w = writev(1, iov, n);
		if (w < 0) {
			if (errno == EINTR) continue;
			if (errno == EAGAIN) {
				struct pollfd p = { .fd = 1, .events = POLLOUT };
				poll(&p, 1, -1);
				continue;
			}
			die(); /* the parent is gone */
		}
		while (n > 0 && (size_t)w >= iov->iov_len) { w -= iov->iov_len; iov++; n--; }
		if (n > 0) { iov->iov_base = (char *)iov->iov_base + w; iov->iov_len -= w; }
	}
}

/* The replies of this turn of the loop, written by flush(). */
static unsigned char *obuf;
static size_t olen, ocap;

static void flush(void) {
	if (olen == 0) return;
	struct iovec iov = { obuf, olen };
	write_all(&iov, 1);
	olen = 0;
}

static void reply(int type, uint32_t id, const void *payload, size_t len) {
	if (ocap - olen < 9 + len) {
		size_t want = ocap ? ocap : 4096;
		while (want - olen < 9 + len) want *= 2;
		unsigned char *nb = realloc(obuf, want);
		if (!nb) die();
		obuf = nb; ocap = want;
	}
	unsigned char *h = obuf + olen;
	put32(h, (uint32_t)(5 + len));
	h[4] = (unsigned char)type;
	put32(h + 5, id);
	if (len > 0) memcpy(h + 9, payload, len);
	olen += 9 + len;
	if (olen >= OUT_FLUSH) flush();
}

static void reply32(int type, uint32_t id, uint32_t v) {
	unsigned char p[4];
	put32(p, v);
	reply(type, id, p, 4);
}

static void closefd(int *fd) {
	if (*fd >= 0) { close(*fd); *fd = -1; }
}

static struct run *find_id(uint32_t id) {
	for (int i = 0; i < nruns; i++) if (runs[i].id == id) return &runs[i];
	return NULL;
}

/* SIGKILLs the process group of every plugin not yet reaped (each leads its own session). */
static void end_runs(void) {
	for (int i = 0; i < nruns; i++) if (!runs[i].exited && runs[i].pid > 0) kill(-runs[i].pid, SIGKILL);
}

/* A run is forgotten once its plugin is reaped and its pipes are closed. */
static void maybe_free(struct run *r) {
	if (!r->exited || r->out >= 0 || r->err >= 0) return;
	closefd(&r->in);
	free(r->buf);
	free(r->held[0].bytes);
	free(r->held[1].bytes);
	*r = runs[--nruns];
}

/* Relays what is held of one of the run's pipes (0 stdout, 1 stderr). */
static void release_held(struct run *r, int which) {
	if (r->held[which].len == 0) return;
	reply(which == 0 ? A_STDOUT : A_STDERR, r->id, r->held[which].bytes, r->held[which].len);
	r->held[which].len = 0;
}

/* Output of a pipe: held while the plugin runs (see the top of this file), else relayed. */
static void output(struct run *r, int which, const char *bytes, size_t n) {
	r->held[which].total += n;
	if (r->exited) { reply(which == 0 ? A_STDOUT : A_STDERR, r->id, bytes, n); return; }
	if (r->held[which].len + n > HOLD_MAX) release_held(r, which);
	if (n >= HOLD_MAX) { reply(which == 0 ? A_STDOUT : A_STDERR, r->id, bytes, n); return; }
	if (!r->held[which].bytes) {
		r->held[which].bytes = malloc(HOLD_MAX);
		if (!r->held[which].bytes) die();
	}
	memcpy(r->held[which].bytes + r->held[which].len, bytes, n);
	r->held[which].len += n;
	/* Past the cap the library stops the plugin: it must see those bytes now. */
	if (r->held[which].total > r->cap) release_held(r, which);
}

/* Enters the network namespace at `path` (its fd in *fd, for leave_netns); an errno on failure
 * (EINVAL: the path is not a network namespace). */
static int enter_netns(const char *path, int *fd) {
	int e = own_netns();
	if (e) return e;
	/* O_NONBLOCK: a FIFO at the path must not stall the helper (and every run) on its open. */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (*fd < 0) return errno;
	if (setns(*fd, CLONE_NEWNET) == 0) return 0;
	e = errno;
	close(*fd);
	*fd = -1;
	return e;
}

/* Back to the helper's own namespace; staying elsewhere would start every later run there.
 * Should that fail, the helper dies, and the plugin it just started (`started`, or -1) goes
 * with it: nobody would report it, and the library retries a run it never saw start. */
static void leave_netns(int fd, pid_t started) {
	if (setns(self_ns, CLONE_NEWNET) != 0) {
		if (started > 0) kill(-started, SIGKILL);
		die();
	}
	close(fd);
}

/* A path payload: u32 length, bytes. */
static char *path_of(const unsigned char *p, size_t len) {
	if (len < 4) die();
	uint32_t pl = get32(p);
	if (len - 4 < pl) die();
	char *path = malloc(pl + 1);
	if (!path) die();
	memcpy(path, p + 4, pl); path[pl] = 0;
	return path;
}

/* Makes `dir` a shared mount, as iproute2's netns_add does for its run dir: so namespaces
 * pinned there show in other mount namespaces. A directory that is not a mount point yet is
 * bind-mounted on itself first. */
static int share_dir(const char *dir) {
	if (mount("", dir, "none", MS_SHARED | MS_REC, NULL) == 0) return 0;
	if (errno != EINVAL) return errno;
	if (mount(dir, dir, "none", MS_BIND | MS_REC, NULL) != 0) return errno;
	if (mount("", dir, "none", MS_SHARED | MS_REC, NULL) != 0) return errno;
	return 0;
}

/* PIN: a new network namespace, bind-mounted on `path` (an existing empty file). The helper
 * unshares it, pins it and goes back to its own namespace: nothing forks. */
static int pin_netns(const unsigned char *p, size_t len) {
	if (len < 1) die();
	int shared = p[0];
	char *path = path_of(p + 1, len - 1);
	int e = own_netns();
	if (!e && shared) {
		char *slash = strrchr(path, '/');
		if (slash && slash != path) {
			*slash = 0;
			e = share_dir(path);
			*slash = '/';
		}
	}
	if (!e && unshare(CLONE_NEWNET) != 0) e = errno;
	else if (!e) {
		if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL) != 0) e = errno;
		if (setns(self_ns, CLONE_NEWNET) != 0) die();
	}
	free(path);
	return e;
}

/* UNPIN: the namespace's bind mount detached (it lives on while a process is in it). A link
 * at the path is not followed: umount2 would unpin what it points to, another's namespace. */
static int unpin_netns(const unsigned char *p, size_t len) {
	char *path = path_of(p, len);
	int e = umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0 ? 0 : errno;
	free(path);
	return e;
}

static void start_run(uint32_t id, const unsigned char *p, size_t len) {
	const unsigned char *end = p + len;
	if (len < 8) die();
	uint32_t plen = get32(p); p += 4;
	if ((size_t)(end - p) < (size_t)plen + 4) die();
	char *path = malloc(plen + 1);
	if (!path) die();
	memcpy(path, p, plen); path[plen] = 0; p += plen;
	uint32_t nenv = get32(p); p += 4;
	if (nenv > (size_t)(end - p) / 4) die();
	char **envp = calloc((size_t)nenv + 1, sizeof(char *));
	if (!envp) die();
	for (uint32_t i = 0; i < nenv; i++) {
		if (end - p < 4) die();
		uint32_t el = get32(p); p += 4;
		if ((size_t)(end - p) < el) die();
		envp[i] = malloc(el + 1);
		if (!envp[i]) die();
		memcpy(envp[i], p, el); envp[i][el] = 0; p += el;
	}
	if (end - p < 4) die();
	uint32_t cap = get32(p); p += 4;
	uint32_t nargs = 0;
	if (end - p >= 4) { nargs = get32(p); p += 4; }
	if (nargs > (size_t)(end - p) / 4) die();
	char **argv = calloc((size_t)nargs + 2, sizeof(char *));
	if (!argv) die();
	argv[0] = path;
	for (uint32_t i = 0; i < nargs; i++) {
		if (end - p < 4) die();
		uint32_t al = get32(p); p += 4;
		if ((size_t)(end - p) < al) die();
		argv[i + 1] = malloc(al + 1);
		if (!argv[i + 1]) die();
		memcpy(argv[i + 1], p, al); argv[i + 1][al] = 0; p += al;
	}
	char *netns = NULL;
	if (end - p >= 4) {
		uint32_t nl = get32(p); p += 4;
		if ((size_t)(end - p) < nl) die();
		if (nl > 0) {
			netns = malloc(nl + 1);
			if (!netns) die();
			memcpy(netns, p, nl); netns[nl] = 0;
		}
	}

	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int e = 0, netns_failed = 0;
	pid_t pid = -1;
	if (nruns >= MAX_RUNS) e = EAGAIN;
	else if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) e = errno;
	if (!e) {
		posix_spawn_file_actions_t fa;
		posix_spawnattr_t at;
		sigset_t all, none;
		sigfillset(&all);
		sigemptyset(&none);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, in[0], 0);
		posix_spawn_file_actions_adddup2(&fa, out[1], 1);
		posix_spawn_file_actions_adddup2(&fa, err[1], 2);
		posix_spawnattr_init(&at);
		/* Signals back to their defaults and unblocked; a new session (so a process group
		 * led by the plugin), as Node's `detached: true` does for the direct spawn. */
		posix_spawnattr_setsigdefault(&at, &all);
		posix_spawnattr_setsigmask(&at, &none);
		posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSID);
		int ns = -1;
		if (netns) {
			e = enter_netns(netns, &ns);
			if (e) netns_failed = 1;
		}
		if (!e) e = posix_spawn(&pid, path, &fa, &at, argv, envp);
		if (ns >= 0) leave_netns(ns, e ? -1 : pid);
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&at);
	}
	closefd(&in[0]); closefd(&out[1]); closefd(&err[1]);
	for (uint32_t i = 0; i < nenv; i++) free(envp[i]);
	free(envp);
	for (uint32_t i = 0; i < nargs; i++) free(argv[i + 1]);
	free(argv);
	free(netns);
	free(path);
	if (e) {
		closefd(&in[1]); closefd(&out[0]); closefd(&err[0]);
		/* u32 errno, then u32 1 when it was entering the run's namespace that failed. */
		unsigned char failed[8];
		put32(failed, (uint32_t)e);
		put32(failed + 4, (uint32_t)netns_failed);
		reply(A_FAILED, id, failed, netns_failed ? 8 : 4);
		return;
	}
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	struct run *r = &runs[nruns++];
	memset(r, 0, sizeof *r);
	r->id = id; r->pid = pid; r->in = in[1]; r->out = out[0]; r->err = err[0]; r->cap = cap;
	reply32(A_STARTED, id, (uint32_t)pid);
	/* Sent at once, not with the turn's other replies: a helper killed before the STARTED
	 * went out leaves a plugin nobody knows of (its run is retried on another helper). */
	flush();
}

/* Writes what it can of the plugin's stdin; a plugin that exits unread gives EPIPE, which
 * is not an error (Go's exec ignores it too). */
static void feed(struct run *r) {
	while (r->in >= 0 && r->off < r->len) {
		ssize_t w = write(r->in, r->buf + r->off, r->len - r->off);
		if (w < 0) {
			if (errno == EINTR) continue;
			if (errno == EAGAIN) return;
			r->off = r->len; /* EPIPE and the like: the plugin does not read any more */
			closefd(&r->in);
			break;
		}
		r->off += (size_t)w;
	}
	if (r->off == r->len) { free(r->buf); r->buf = NULL; r->len = r->off = 0; }
	if (r->stdin_end && r->len == 0) closefd(&r->in);
}

static void request(int type, uint32_t id, const unsigned char *p, size_t len) {
	if (type == R_RUN) { start_run(id, p, len); return; }
	if (type == R_PIN) { reply32(A_DONE, id, (uint32_t)pin_netns(p, len)); return; }
	if (type == R_UNPIN) { reply32(A_DONE, id, (uint32_t)unpin_netns(p, len)); return; }
	struct run *r = find_id(id);
	if (!r) return; /* already over */
	if (type == R_STDIN) {
		if (r->in < 0 || len == 0) return;
		char *nb = realloc(r->buf, r->len + len);
		if (!nb) die();
		memcpy(nb + r->len, p, len);
		r->buf = nb; r->len += len;
		/* Not fed here: the poll loop feeds it, after this turn's flush() sent the run's
		 * STARTED. So a plugin never has its configuration before the library knows its
		 * pid, and a run the library never saw start surely did nothing. */
	} else if (type == R_STDIN_END) {
		r->stdin_end = 1;
		if (r->len == 0) closefd(&r->in);
	} else if (type == R_CLOSE) {
		/* The library gave up on the pipes: what is held is not wanted either. */
		r->held[0].len = r->held[1].len = 0;
		r->eof_held[0] = r->eof_held[1] = 0;
		closefd(&r->in); closefd(&r->out); closefd(&r->err);
		maybe_free(r);
	}
}

static unsigned char *rbuf;
static size_t rlen, rcap;

/* Reads from the control pipe and handles every complete request; EOF means the parent is
 * gone or done with the helper. */
static void read_control(void) {
	if (rcap - rlen < READ_CHUNK) {
		rcap = rcap ? rcap * 2 : 2 * READ_CHUNK;
		rbuf = realloc(rbuf, rcap);
		if (!rbuf) die();
	}
	ssize_t n = read(0, rbuf + rlen, rcap - rlen);
	if (n == 0) { end_runs(); _exit(0); }
	if (n < 0) { if (errno == EINTR || errno == EAGAIN) return; die(); }
	rlen += (size_t)n;
	size_t off = 0;
	while (rlen - off >= 9) {
		uint32_t flen = get32(rbuf + off);
		if (flen < 5 || flen > MAX_FRAME) die();
		if (rlen - off < 4 + (size_t)flen) break; /* the buffer grows as the rest arrives */
		request(rbuf[off + 4], get32(rbuf + off + 5), rbuf + off + 9, flen - 5);
		off += 4 + flen;
	}
	if (off == 0) return; /* a frame still arriving: moved once it is complete, not per read */
	memmove(rbuf, rbuf + off, rlen - off);
	rlen -= off;
}

/* Reads one of the run's pipes (which: 1 stdout, 2 stderr) until it would block, for at most
 * `rounds` reads (a pipe that never ends must not starve the others); EOF closes it. */
static void drain_output(struct run *r, int *fd, unsigned char which, int rounds) {
	for (int i = 0; i < rounds && *fd >= 0; i++) {
		ssize_t n = read(*fd, chunk, sizeof chunk);
		if (n > 0) { output(r, which - 1, chunk, (size_t)n); continue; }
		if (n < 0 && (errno == EINTR)) continue;
		if (n < 0 && errno == EAGAIN) return;
		closefd(fd);
		/* Before the exit (the kernel closes a process's fds before its parent is told), the
		 * EOF waits for the EXIT, so the library wakes once for both. */
		if (!r->exited) { r->eof_held[which - 1] = 1; return; }
		release_held(r, which - 1);
		reply(A_EOF, r->id, &which, 1);
		return;
	}
}

static void reap(void) {
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < nruns; i++) {
			if (runs[i].pid != pid) continue;
			struct run *r = &runs[i];
			/* Its pipes are at their end unless a grandchild holds them: read them now, so
			 * that the output, EOFs and EXIT go out together; then relay what is held. */
			drain_output(r, &r->out, 1, 16);
			drain_output(r, &r->err, 2, 16);
			r->exited = 1;
			release_held(r, 0);
			release_held(r, 1);
			for (unsigned char w = 1; w <= 2; w++) {
				if (!r->eof_held[w - 1]) continue;
				r->eof_held[w - 1] = 0;
				reply(A_EOF, r->id, &w, 1);
			}
			reply32(A_EXIT, r->id, (uint32_t)status);
			maybe_free(r);
			break;
		}
	}
}

/* ---- The file channel (fd 3): a thread reads its requests and hands each to a small pool of
 * threads (as libuv's pool runs the main thread's fs calls), so that one slow disk read holds
 * no other request back. Nothing is shared with the poll loop above but the process. Every fd
 * opened here is close-on-exec (a plugin started by the poll loop meanwhile must not inherit
 * one). */

#define IO_THREADS 4

static pthread_mutex_t io_out = PTHREAD_MUTEX_INITIALIZER; /* one writer of fd 3 at a time */

/* Replies of one request, written whole frames at a time (a large READ in several writes). */
struct out { unsigned char *buf; size_t len, cap; int broken; };

static void out_flush(struct out *o) {
	if (o->len == 0 || o->broken) { o->len = 0; return; }
	pthread_mutex_lock(&io_out);
	for (size_t off = 0; off < o->len;) {
		ssize_t w = write(IO_FD, o->buf + off, o->len - off);
		if (w < 0 && errno == EINTR) continue;
		if (w < 0) { o->broken = 1; break; } /* the parent is gone: the poll loop ends it all */
		off += (size_t)w;
	}
	pthread_mutex_unlock(&io_out);
	o->len = 0;
}

static void out_frame(struct out *o, int type, uint32_t id, const void *a, size_t alen, const void *b, size_t blen) {
	size_t len = alen + blen;
	if (o->cap - o->len < 9 + len) {
		size_t want = o->cap ? o->cap : 4096;
		while (want - o->len < 9 + len) want *= 2;
		unsigned char *nb = realloc(o->buf, want);
		if (!nb) die();
		o->buf = nb; o->cap = want;
	}
	unsigned char *h = o->buf + o->len;
	put32(h, (uint32_t)(5 + len));
	h[4] = (unsigned char)type;
	put32(h + 5, id);
	if (alen > 0) memcpy(h + 9, a, alen);
	if (blen > 0) memcpy(h + 9 + alen, b, blen);
	o->len += 9 + len;
	if (o->len >= OUT_FLUSH) out_flush(o);
}

static char *dup_bytes(const unsigned char *p, size_t n) {
	char *s = malloc(n + 1);
	if (!s) die();
	memcpy(s, p, n); s[n] = 0;
	return s;
}

/* Reads one named file of `dirfd` whole into *buf (*cap its size, its length in *n); 0 when
 * it was read. */
static int read_one(int dirfd, const char *name, int flags, uint32_t most, unsigned char **buf, size_t *cap, size_t *n) {
	if (strchr(name, '/') || name[0] == 0) return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags);
	if (fd < 0) return -1;
	struct stat st;
	int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= most;
	size_t have = 0;
	if (ok) {
		/* One byte more than the size: a file that grew since is seen to have grown. */
		size_t want = (size_t)st.st_size + 1;
		if (want > *cap) {
			unsigned char *nb = realloc(*buf, want);
			if (!nb) die();
			*buf = nb; *cap = want;
		}
		for (;;) {
			if (have == want) { ok = 0; break; } /* it grew: the library reads it itself */
			ssize_t r = read(fd, *buf + have, want - have);
			if (r < 0 && errno == EINTR) continue;
			if (r < 0) { ok = 0; break; }
			if (r == 0) break;
			have += (size_t)r;
		}
	}
	close(fd);
	if (!ok) return -1;
	*n = have;
	return 0;
}

/* READ: every name's file, a FILE frame each, then READ_END. */
static void read_files(uint32_t id, const unsigned char *p, size_t len, struct out *o) {
	const unsigned char *end = p + len;
	if (len < 13) die();
	int flags = (p[0] & 1) ? O_NOFOLLOW : 0;
	uint32_t most = get32(p + 1);
	p += 5;
	uint32_t dl = get32(p); p += 4;
	if ((size_t)(end - p) < (size_t)dl + 4) die();
	char *dir = dup_bytes(p, dl); p += dl;
	uint32_t count = get32(p); p += 4;
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	unsigned char *buf = NULL;
	size_t cap = 0;
	for (uint32_t i = 0; i < count && !o->broken; i++) {
		if (end - p < 4) die();
		uint32_t nl = get32(p); p += 4;
		if ((size_t)(end - p) < nl) die();
		char *name = dup_bytes(p, nl); p += nl;
		unsigned char head[5];
		put32(head, i);
		size_t n = 0;
		if (dirfd >= 0 && read_one(dirfd, name, flags, most, &buf, &cap, &n) == 0) {
			head[4] = 0;
			out_frame(o, F_FILE, id, head, 5, buf, n);
		} else {
			head[4] = 1;
			out_frame(o, F_FILE, id, head, 5, NULL, 0);
		}
		free(name);
	}
	free(buf);
	if (dirfd >= 0) close(dirfd);
	out_frame(o, F_READ_END, id, NULL, 0, NULL, 0);
}

/* The requests waiting for a thread of the pool. */
struct request { struct request *next; int type; uint32_t id; size_t len; unsigned char payload[]; };
static struct request *queue_head, *queue_tail;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cv = PTHREAD_COND_INITIALIZER;

static void *io_worker(void *arg) {
	(void)arg;
	struct out o = { 0 };
	for (;;) {
		pthread_mutex_lock(&queue_lock);
		while (!queue_head) pthread_cond_wait(&queue_cv, &queue_lock);
		struct request *r = queue_head;
		queue_head = r->next;
		if (!queue_head) queue_tail = NULL;
		pthread_mutex_unlock(&queue_lock);
		if (r->type == F_READ) read_files(r->id, r->payload, r->len, &o);
		free(r);
		out_flush(&o);
	}
	return NULL;
}

/* The file channel's reader: frames to the pool, until the channel ends. */
static void *io_main(void *arg) {
	(void)arg;
	for (int t = 0; t < IO_THREADS; t++) {
		pthread_t w;
		if (pthread_create(&w, NULL, io_worker, NULL) == 0) pthread_detach(w);
		else if (t == 0) { close(IO_FD); return NULL; } /* the library sees the channel end */
	}
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < READ_CHUNK) {
			cap = cap ? cap * 2 : 2 * READ_CHUNK;
			buf = realloc(buf, cap);
			if (!buf) die();
		}
		ssize_t n = read(IO_FD, buf + len, cap - len);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) return NULL;
		len += (size_t)n;
		size_t off = 0;
		while (len - off >= 9) {
			uint32_t flen = get32(buf + off);
			if (flen < 5 || flen > MAX_FRAME) die();
			if (len - off < 4 + (size_t)flen) break;
			size_t plen = flen - 5;
			struct request *r = malloc(sizeof *r + plen);
			if (!r) die();
			r->next = NULL;
			r->type = buf[off + 4];
			r->id = get32(buf + off + 5);
			r->len = plen;
			memcpy(r->payload, buf + off + 9, plen);
			pthread_mutex_lock(&queue_lock);
			if (queue_tail) queue_tail->next = r; else queue_head = r;
			queue_tail = r;
			pthread_cond_signal(&queue_cv);
			pthread_mutex_unlock(&queue_lock);
			off += 4 + flen;
		}
		if (off == 0) continue;
		memmove(buf, buf + off, len - off);
		len -= off;
	}
}

/* Closes what the helper inherited from `first` on (fd 3 is kept when it is the file channel). */
static void close_inherited(unsigned first) {
	if (syscall(SYS_close_range, first, ~0u, 0u) == 0) return;
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536) max = 65536;
	for (int fd = (int)first; fd < max; fd++) close(fd);
}

int main(int argc, char **argv) {
	/* SIGTERM, not SIGKILL: read from the signalfd below, so that the plugins go with it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* The parent may have died before the prctl: then nobody would ever kill this process. */
	if (argc > 1 && getppid() != (pid_t)atol(argv[1])) return 1;
	/* `io`: fd 3 is the file channel (see the top of this file). */
	int io = argc > 2 && strcmp(argv[2], "io") == 0 && fcntl(IO_FD, F_GETFD) >= 0;
	close_inherited(io ? IO_FD + 1 : IO_FD);
	for (int fd = 0; fd <= 2; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaddset(&chld, SIGTERM);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) die();
	if (io) {
		/* Blocking, for the file thread (which inherits the signal mask set above). */
		fcntl(IO_FD, F_SETFD, FD_CLOEXEC);
		fcntl(IO_FD, F_SETFL, fcntl(IO_FD, F_GETFL) & ~O_NONBLOCK);
		pthread_t t;
		if (pthread_create(&t, NULL, io_main, NULL) == 0) pthread_detach(t);
		else close(IO_FD);
	}
	reply32(A_HELLO, PROTOCOL_VERSION, (uint32_t)getpid());

	static struct pollfd fds[2 + 3 * MAX_RUNS];
	static struct { struct run *r; int which; } who[2 + 3 * MAX_RUNS];
	for (;;) {
		int n = 0;
		fds[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
		fds[n++] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (int i = 0; i < nruns; i++) {
			struct run *r = &runs[i];
			if (r->in >= 0 && r->len > 0) { who[n].r = r; who[n].which = 0; fds[n++] = (struct pollfd){ .fd = r->in, .events = POLLOUT }; }
			if (r->out >= 0) { who[n].r = r; who[n].which = 1; fds[n++] = (struct pollfd){ .fd = r->out, .events = POLLIN }; }
			if (r->err >= 0) { who[n].r = r; who[n].which = 2; fds[n++] = (struct pollfd){ .fd = r->err, .events = POLLIN }; }
		}
		flush(); /* this turn's replies, in one write, before waiting */
		if (poll(fds, (nfds_t)n, -1) < 0) { if (errno == EINTR) continue; die(); }
		/* Output first, then exits, then new requests: runs are freed only in reap() and
		 * request(), after every pollfd that points at them was handled. */
		for (int i = 2; i < n; i++) {
			if (!fds[i].revents) continue;
			struct run *r = who[i].r;
			if (who[i].which == 0) feed(r);
			else if (who[i].which == 1 && r->out == fds[i].fd) drain_output(r, &r->out, 1, 16);
			else if (who[i].which == 2 && r->err == fds[i].fd) drain_output(r, &r->err, 2, 16);
		}
		/* Runs whose pipes closed after their exit can go now (not during the loop above,
		 * which would move a run another pollfd still points at). */
		for (int i = nruns - 1; i >= 0; i--) maybe_free(&runs[i]);
		if (fds[1].revents) {
			struct signalfd_siginfo si;
			int term = 0;
			while (read(sfd, &si, sizeof si) == sizeof si) term |= si.ssi_signo == SIGTERM;
			reap();
			if (term) { end_runs(); _exit(0); }
		}
		if (fds[0].revents) read_control();
	}
}
