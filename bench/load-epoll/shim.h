// epoll and eventfd for bench-load's raw subscriber engine: glibc declares them, but the
// Swift Glibc module does not include these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
