// The test binary runs hundreds of tests side by side, many of them writing to sockets and pipes
// whose other end a test has just killed. The libraries ignore SIGPIPE themselves when they
// make their first connection (libwebsockets when it creates a context, RedisConnection when it
// connects), and the daemon's main does so at once; the test process does it before the first
// test, so a write that races a library's first connection fails with EPIPE instead of ending
// every test with signal 13.
#include <signal.h>
#include "test_process.h"

__attribute__((constructor)) static void rs_test_process_start(void) { signal(SIGPIPE, SIG_IGN); }

int rs_test_process_ignores_broken_pipes(void) {
    struct sigaction current;
    return sigaction(SIGPIPE, 0, &current) == 0 && current.sa_handler == SIG_IGN;
}
