#ifndef RIVESYNC_TEST_PROCESS_H
#define RIVESYNC_TEST_PROCESS_H

/// Whether the test process ignores SIGPIPE (1) — set before any test runs.
int rs_test_process_ignores_broken_pipes(void);

#endif
