// bench-rooms-floor's event loop: one thread, one epoll set, non-blocking sockets. Output
// queued while handling a wake-up's events goes out at its end, one send() per connection.
//
// Usage: bench-rooms-floor --port PORT [--host 127.0.0.1]
#define _GNU_SOURCE  // accept4
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "floor.h"

static int epoll_fd;
static struct connection **by_fd;
static size_t by_fd_count;
static struct connection **dirty;
static size_t dirty_count, dirty_capacity;

void connection_send(struct connection *c, const char *bytes, size_t length) {
    buffer_append(&c->out, bytes, length);
    if (c->dirty) return;
    c->dirty = 1;
    if (dirty_count == dirty_capacity) {
        dirty_capacity = dirty_capacity ? dirty_capacity * 2 : 1024;
        dirty = realloc(dirty, dirty_capacity * sizeof *dirty);
    }
    dirty[dirty_count++] = c;
}

static void watch(struct connection *c, uint32_t events, int op) {
    struct epoll_event event = {.events = events, .data.ptr = c};
    epoll_ctl(epoll_fd, op, c->fd, &event);
}

static void close_connection(struct connection *c) {
    rooms_forget(c);
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    by_fd[c->fd] = NULL;
    c->fd = -1;  // freed after the wake-up (it may still be on the dirty list)
}

static void release(struct connection *c) {
    free(c->in.bytes);
    free(c->out.bytes);
    free(c);
}

// What a `send` or `recv` on `c` that returned `n` (not above 0) means: call again (it was
// interrupted), wait for epoll (the socket would block), or the connection is over (closed here).
enum io_next { IO_RETRY, IO_WAIT, IO_CLOSED };
static enum io_next after_io(struct connection *c, ssize_t n) {
    if (n < 0 && errno == EINTR) return IO_RETRY;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return IO_WAIT;
    close_connection(c);
    return IO_CLOSED;
}

// Sends what `c` has queued; whatever the socket does not take waits for EPOLLOUT.
static void flush(struct connection *c) {
    size_t sent = 0;
    while (sent < c->out.length) {
        ssize_t n = send(c->fd, c->out.bytes + sent, c->out.length - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        enum io_next next = after_io(c, n);
        if (next == IO_CLOSED) return;
        if (next == IO_WAIT) break;
    }
    buffer_consume(&c->out, sent);
    int writing = c->out.length > 0;
    if (writing != c->writing) watch(c, writing ? EPOLLIN | EPOLLOUT : EPOLLIN, EPOLL_CTL_MOD);
    c->writing = writing;
}

static void accept_all(int listener) {
    for (;;) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if ((size_t)fd >= by_fd_count) {
            size_t count = by_fd_count ? by_fd_count : 1024;
            while (count <= (size_t)fd) count *= 2;
            by_fd = realloc(by_fd, count * sizeof *by_fd);
            memset(by_fd + by_fd_count, 0, (count - by_fd_count) * sizeof *by_fd);
            by_fd_count = count;
        }
        struct connection *c = calloc(1, sizeof *c);
        c->fd = fd;
        by_fd[fd] = c;
        watch(c, EPOLLIN, EPOLL_CTL_ADD);
    }
}

// Reads what `c` has received and handles every complete request in it.
static void receive(struct connection *c) {
    char chunk[65536];
    for (;;) {
        ssize_t n = recv(c->fd, chunk, sizeof chunk, 0);
        if (n > 0) {
            buffer_append(&c->in, chunk, (size_t)n);
            if ((size_t)n < sizeof chunk) break;
            continue;
        }
        enum io_next next = after_io(c, n);
        if (next == IO_CLOSED) return;
        if (next == IO_WAIT) break;
    }
    if (!c->upgraded && websocket_upgrade(c) < 0) {
        close_connection(c);
        return;
    }
    if (c->upgraded && websocket_read(c, rooms_message) < 0) close_connection(c);
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1";
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port") == 0) port = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--host") == 0) host = argv[i + 1];
    }
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (port <= 0 || inet_pton(AF_INET, host, &address.sin_addr) != 1 ||
        bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4096) != 0) {
        fprintf(stderr, "bench-rooms-floor: cannot listen on %s:%d (usage: --port PORT [--host ADDRESS])\n", host, port);
        return 1;
    }
    // SIGTERM and SIGINT end the floor, even when started with them blocked or ignored.
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    sigprocmask(SIG_UNBLOCK, &stops, NULL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
    printf("bench-rooms-floor listening on %s:%d\n", host, port);
    fflush(stdout);
    struct epoll_event events[256];
    struct connection *closed[256];
    for (;;) {
        int count = epoll_wait(epoll_fd, events, 256, -1);
        int closed_count = 0;
        for (int i = 0; i < count; i++) {
            struct connection *c = events[i].data.ptr;
            if (!c) {
                accept_all(listener);
                continue;
            }
            if (c->fd < 0) continue;
            if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) receive(c);
            if (c->fd >= 0 && (events[i].events & EPOLLOUT) && !c->dirty) flush(c);
            if (c->fd < 0) closed[closed_count++] = c;
        }
        for (size_t i = 0; i < dirty_count; i++) {
            dirty[i]->dirty = 0;
            if (dirty[i]->fd < 0) continue;  // closed above: freed below
            flush(dirty[i]);
            if (dirty[i]->fd < 0) release(dirty[i]);
        }
        dirty_count = 0;
        for (int i = 0; i < closed_count; i++) release(closed[i]);
    }
}
