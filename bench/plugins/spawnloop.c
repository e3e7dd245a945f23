/*
 * spawnloop: the floor. A C loop that does what any runtime must do per plugin call and
 * nothing else: posix_spawn the plugin with the CNI_* environment, write its config to a
 * pipe, read its stdout to EOF, wait for it. No JSON, no cache, no lookup.
 *
 * Usage: spawnloop <plugin> <stdin-file>; then, per line on stdin, "<calls> <chain>" runs
 * calls x chain spawns and answers with the elapsed nanoseconds on one line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *config;
static size_t config_len;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

static void run_once(const char *plugin, char **env) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe2");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  char *argv[] = {(char *)plugin, NULL};
  pid_t pid;
  int err = posix_spawn(&pid, plugin, &fa, NULL, argv, env);
  if (err) {
    errno = err;
    die("posix_spawn");
  }
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  size_t off = 0;
  while (off < config_len) {
    ssize_t w = write(in[1], config + off, config_len - off);
    if (w < 0) die("write");
    off += (size_t)w;
  }
  close(in[1]);
  char buf[65536];
  ssize_t r;
  while ((r = read(out[0], buf, sizeof buf)) > 0) {
  }
  if (r < 0) die("read");
  close(out[0]);
  int status;
  if (waitpid(pid, &status, 0) < 0) die("waitpid");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "plugin failed: status %d\n", status);
    exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: spawnloop <plugin> <stdin-file>\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "rb");
  if (!f) die("fopen");
  fseek(f, 0, SEEK_END);
  config_len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  config = malloc(config_len + 1);
  if (fread(config, 1, config_len, f) != config_len) die("fread");
  fclose(f);

  /* The environment a runtime passes: its own plus the CNI_* variables. */
  size_t n = 0;
  while (environ[n]) n++;
  char **env = calloc(n + 6, sizeof(char *));
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "CNI_", 4) != 0) env[k++] = environ[i];
  }
  env[k++] = "CNI_COMMAND=ADD";
  env[k++] = "CNI_CONTAINERID=bench-floor";
  env[k++] = "CNI_NETNS=/var/run/netns/bench";
  env[k++] = "CNI_IFNAME=eth0";
  env[k++] = "CNI_PATH=/nonexistent";
  env[k] = NULL;

  char line[256];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    long calls = 0, chain = 0;
    if (sscanf(line, "%ld %ld", &calls, &chain) != 2) break;
    long long t0 = now_ns();
    for (long i = 0; i < calls * chain; i++) run_once(argv[1], env);
    printf("%lld\n", now_ns() - t0);
  }
  return 0;
}
