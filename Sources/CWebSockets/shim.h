/*
 * Helpers for the parts of libwebsockets 4.1.6 that Swift cannot import
 * (function-like macros, variadic calls, struct-embedding tricks).
 * Every helper is static inline: this target has no object code.
 */
#ifndef RIVESYNC_CWEBSOCKETS_SHIM_H
#define RIVESYNC_CWEBSOCKETS_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <malloc.h>
#include <libwebsockets.h>
#include <ev.h>

/* Headroom lws needs before every buffer passed to lws_write (LWS_PRE). */
static inline size_t rs_lws_pre(void) { return LWS_PRE; }

/* Non-variadic front end to _lws_log (the lwsl_* macros are variadic). */
static inline void rs_lws_log(int level, const char *message) {
    _lws_log(level, "%s", message);
}

/* Option bits that are macros over 64-bit shifts. */
static inline uint64_t rs_opt_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
static inline uint64_t rs_opt_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t rs_opt_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t rs_opt_fail_unable_to_bind(void) { return LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND; }
static inline uint64_t rs_opt_raw_origin(void) { return LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN; }
static inline int rs_port_no_listen(void) { return CONTEXT_PORT_NO_LISTEN; }

/* TLS floor: no SSLv3, TLS 1.0 or TLS 1.1 (ssl_options_set; the SSL_OP_* are 64-bit macros). */
static inline long rs_ssl_options_tls12_floor(void) {
    return (long)(SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1);
}

/*
 * A timer on the service thread whose callback can find its owner: lws hands
 * the callback only the lws_sorted_usec_list_t pointer, so embed it first in a
 * C struct. On a poll() thread (`loop` NULL) it is an lws sul. On a libev
 * thread (`loop` set to the thread's loop before it is first scheduled) it is
 * an ev_timer that calls the same callback: lws 4.1.6's libev plugin arms its
 * own timer only from its idle watcher, and re-arming an active ev_timer there
 * is lost, so a sul falls due late on a quiet loop.
 */
typedef struct rs_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
    void *loop;
    sul_cb_t callback;
    ev_timer watcher;
} rs_timer_t;

static inline void *rs_timer_owner(lws_sorted_usec_list_t *sul) {
    return ((rs_timer_t *)sul)->owner;
}

static void rs_timer_fired(struct ev_loop *loop, ev_timer *watcher, int revents) {
    rs_timer_t *timer = (rs_timer_t *)((char *)watcher - offsetof(rs_timer_t, watcher));
    (void)loop;
    (void)revents;
    timer->callback(&timer->sul);
}

static inline void rs_timer_schedule(struct lws_context *context, rs_timer_t *timer,
                                     sul_cb_t callback, lws_usec_t delay_us) {
    struct ev_loop *loop = (struct ev_loop *)timer->loop;
    if (!loop) {
        lws_sul_schedule(context, 0, &timer->sul, callback, delay_us);
        return;
    }
    ev_timer_stop(loop, &timer->watcher);
    timer->callback = callback;
    ev_now_update(loop);
    ev_timer_init(&timer->watcher, rs_timer_fired, (ev_tstamp)delay_us / 1e6, 0.);
    /* Before the sockets' events of the same loop iteration. */
    ev_set_priority(&timer->watcher, EV_MAXPRI);
    ev_timer_start(loop, &timer->watcher);
}

static inline void rs_timer_cancel(rs_timer_t *timer) {
    struct ev_loop *loop = (struct ev_loop *)timer->loop;
    if (loop)
        ev_timer_stop(loop, &timer->watcher);
    lws_sul_cancel(&timer->sul);
}

/*
 * lws' own timeouts (handshake, ping and idle policy, closes) are suls too:
 * on a libev loop a repeating timer wakes the loop with lws_cancel_service so
 * that lws' idle watcher runs the ones due, at worst `period` late.
 */
typedef struct rs_sul_pump {
    ev_timer watcher;
    struct lws_context *context;
} rs_sul_pump_t;

static void rs_sul_pump_fired(struct ev_loop *loop, ev_timer *watcher, int revents) {
    (void)loop;
    (void)revents;
    lws_cancel_service(((rs_sul_pump_t *)watcher)->context);
}

static inline void rs_sul_pump_start(void *loop, rs_sul_pump_t *pump, struct lws_context *context,
                                     double period) {
    pump->context = context;
    ev_timer_init(&pump->watcher, rs_sul_pump_fired, period, period);
    ev_timer_start((struct ev_loop *)loop, &pump->watcher);
}

static inline void rs_sul_pump_stop(void *loop, rs_sul_pump_t *pump) {
    ev_timer_stop((struct ev_loop *)loop, &pump->watcher);
}

/* Client frames: LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER passes `char **`. */
static inline int rs_append_header(struct lws *wsi, const char *name, const char *value,
                                   void *in, size_t len) {
    unsigned char **p = (unsigned char **)in;
    unsigned char *end = (*p) + len;
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                       (const unsigned char *)value, (int)strlen(value), p, end);
}

/*
 * The server's event loop: libev on epoll, handed to lws as a foreign loop
 * (LWS_SERVER_OPTION_LIBEV loads lws' libev plugin). lws' default poll()
 * backend walks every socket on each wake-up; epoll touches only the ready
 * ones. The loop is ours, so the service thread stops it with ev_break.
 */
static inline uint64_t rs_opt_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
static inline void *rs_ev_loop_new(void) { return ev_loop_new(EVBACKEND_EPOLL); }
static inline void rs_ev_run(void *loop) { ev_run((struct ev_loop *)loop, 0); }
static inline void rs_ev_break(void *loop) { ev_break((struct ev_loop *)loop, EVBREAK_ALL); }
static inline void rs_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

/*
 * Starts loading the cache lines of the `bytes` bytes at `start` without
 * waiting for them (a hint: it neither faults nor changes what the program
 * does). A send's recipients and a flush's connections are touched one after
 * the other, each last touched one advance ago and out of cache at 100 rooms:
 * asked for all at once, their misses overlap instead of queueing.
 */
static inline void rs_prefetch(const void *start, size_t bytes) {
    const char *line = (const char *)((uintptr_t)start & ~(uintptr_t)63);
    const char *end = (const char *)start + bytes;
    for (; line < end; line += 64) __builtin_prefetch(line, 1, 3);
}

/*
 * Tells `loop` that `fd` is writable, as if epoll had said so: the watchers of
 * `fd` that wait for writing (lws' own, started by lws_callback_on_writable)
 * run in this pass of the loop, with no epoll_ctl and no epoll_wait first.
 */
static inline void rs_ev_feed_writable(void *loop, int fd) {
    ev_feed_fd_event((struct ev_loop *)loop, fd, EV_WRITE);
}

/*
 * Runs lws' writable handling of `wsi` now, as if its socket had just been
 * reported writable (pong or close reply first, then the protocol's
 * WRITEABLE): what rs_ev_feed_writable brings on in the loop's next pass, for
 * a caller outside every lws call (the hosted timer). lws' libev plugin
 * starts its idle watcher after each socket event it handles, which costs the
 * loop one more epoll_wait (timeout 0) before it sleeps; this call starts
 * none. Returns lws_service_fd's result (nonzero: the wsi was closed).
 */
static inline int rs_service_writable(struct lws_context *context, struct lws *wsi) {
    struct lws_pollfd pollfd;
    pollfd.fd = lws_get_socket_fd(wsi);
    pollfd.events = LWS_POLLOUT;
    pollfd.revents = LWS_POLLOUT;
    return lws_service_fd(context, &pollfd);
}

/*
 * lws' idle work run before the loop polls, not after an empty poll.
 *
 * lws 4.1.6's libev plugin starts an idle watcher after every socket event it
 * serves (its io callback). The watcher's callback does lws' deferred work:
 * rx flow control that became ripe, "forced service" of connections with
 * input lws already holds, and lws' own timeouts; it stops the watcher when
 * nothing is left. An active idle watcher makes libev poll with a zero
 * timeout, and libev runs idle watchers only after a poll: so every wake-up
 * with a socket event made one more epoll_wait that found nothing.
 *
 * `rs_idle_driver_t` runs lws' idle callback from a prepare watcher (libev
 * runs those before it computes the poll's timeout): when it stops the idle
 * watcher, the loop then sleeps at once; when lws still has work (the
 * callback leaves its watcher running), the poll has a zero timeout as before.
 * Its `before_poll` runs first: the server's hosted timers that are already
 * due run there, not after a poll with a zero timeout.
 *
 * lws exports no way to reach the watcher. The plugin keeps it in its data of
 * the service thread, the last bytes of the context's one allocation (4.1.6,
 * one thread, no per-context plugin data): the thread's loop, a timer, the
 * idle watcher, a signal watcher and its context, the thread's lws data.
 * `rs_lws_idle_watcher` looks there and accepts the place only if the loop,
 * the context and the thread's data (pointed to by both the timer and the
 * last field) are where that layout puts them; otherwise it finds nothing and
 * lws' idle watcher is left as it is.
 */
typedef struct rs_lws_ev_thread {
    struct ev_loop *loop;
    ev_timer timer;
    ev_idle idle;
    ev_signal signal;
    struct lws_context *signal_context;
    void *thread;
} rs_lws_ev_thread_t;

static inline ev_idle *rs_lws_idle_watcher(struct lws_context *context, void *loop) {
    size_t usable = malloc_usable_size(context);
    /* malloc rounds the request up by less than 16 bytes; the data is 8-aligned. */
    for (size_t slack = 0; slack < 16 && slack + sizeof(rs_lws_ev_thread_t) <= usable; slack += 8) {
        rs_lws_ev_thread_t *data =
            (rs_lws_ev_thread_t *)((char *)context + usable - slack - sizeof(rs_lws_ev_thread_t));
        if (data->loop == loop && data->signal_context == context && data->timer.data == data->thread &&
            (char *)data->thread > (char *)context && (char *)data->thread < (char *)data &&
            data->idle.cb != NULL)
            return &data->idle;
    }
    return NULL;
}

typedef struct rs_idle_driver {
    ev_prepare prepare;
    /* lws' idle watcher, or NULL when it was not found. */
    ev_idle *idle;
    /* Called first, before lws' idle work, each time the loop is about to poll. */
    void (*before_poll)(void *owner);
    void *owner;
} rs_idle_driver_t;

static void rs_idle_driver_prepared(struct ev_loop *loop, ev_prepare *prepare, int revents) {
    rs_idle_driver_t *driver = (rs_idle_driver_t *)prepare;
    (void)revents;
    if (driver->before_poll)
        driver->before_poll(driver->owner);
    if (driver->idle && ev_is_active(driver->idle))
        ev_invoke(loop, driver->idle, EV_IDLE);
}

/* Starts calling `before_poll` (may be NULL), then lws' idle work, before each
   poll; returns whether lws' idle watcher was found (if not, lws' idle watcher
   is left to libev). */
static inline bool rs_idle_driver_start(void *loop, rs_idle_driver_t *driver, struct lws_context *context,
                                        void (*before_poll)(void *owner), void *owner) {
    driver->idle = rs_lws_idle_watcher(context, loop);
    driver->before_poll = before_poll;
    driver->owner = owner;
    ev_prepare_init(&driver->prepare, rs_idle_driver_prepared);
    ev_prepare_start((struct ev_loop *)loop, &driver->prepare);
    /* The loop ends by ev_break, not for want of watchers: this one keeps nothing alive. */
    ev_unref((struct ev_loop *)loop);
    return driver->idle != NULL;
}

static inline void rs_idle_driver_stop(void *loop, rs_idle_driver_t *driver) {
    ev_ref((struct ev_loop *)loop);
    ev_prepare_stop((struct ev_loop *)loop, &driver->prepare);
    driver->idle = NULL;
    driver->before_poll = NULL;
}

/* How many times `loop` has polled (libev's iteration count). */
static inline unsigned int rs_ev_iteration(void *loop) { return ev_iteration((struct ev_loop *)loop); }

/*
 * A socket watched on a libev loop before lws owns it (steering, see
 * ServerLoop+Steering.swift): `io` fires when it is readable, `deadline`
 * once when its time is up, `retry` after a short wait when what was there
 * was not enough (a level-triggered `io` would fire again at once for the
 * same bytes; once waiting, the socket is only looked at again by `retry`).
 * `callback` gets the watch and which of the three fired.
 */
enum { RS_WATCH_READABLE = 0, RS_WATCH_DEADLINE = 1, RS_WATCH_RETRY = 2 };

typedef struct rs_watch {
    ev_io io;
    ev_timer deadline;
    ev_timer retry;
    void *owner;
    int fd;
    void (*callback)(struct rs_watch *watch, int event);
} rs_watch_t;

static void rs_watch_readable(struct ev_loop *loop, ev_io *io, int revents) {
    rs_watch_t *watch = (rs_watch_t *)((char *)io - offsetof(rs_watch_t, io));
    (void)loop;
    (void)revents;
    watch->callback(watch, RS_WATCH_READABLE);
}

static void rs_watch_deadline(struct ev_loop *loop, ev_timer *timer, int revents) {
    rs_watch_t *watch = (rs_watch_t *)((char *)timer - offsetof(rs_watch_t, deadline));
    (void)loop;
    (void)revents;
    watch->callback(watch, RS_WATCH_DEADLINE);
}

static void rs_watch_retry(struct ev_loop *loop, ev_timer *timer, int revents) {
    rs_watch_t *watch = (rs_watch_t *)((char *)timer - offsetof(rs_watch_t, retry));
    (void)loop;
    (void)revents;
    watch->callback(watch, RS_WATCH_RETRY);
}

/* Starts watching `fd` for reading, with a deadline `seconds` from now. */
static inline void rs_watch_start(void *loop, rs_watch_t *watch, int fd, double seconds,
                                  void (*callback)(rs_watch_t *, int)) {
    struct ev_loop *l = (struct ev_loop *)loop;
    watch->fd = fd;
    watch->callback = callback;
    ev_io_init(&watch->io, rs_watch_readable, fd, EV_READ);
    ev_timer_init(&watch->deadline, rs_watch_deadline, seconds, 0.);
    ev_timer_init(&watch->retry, rs_watch_retry, 0., 0.);
    ev_io_start(l, &watch->io);
    ev_timer_start(l, &watch->deadline);
}

/* Stops the readable events; RS_WATCH_RETRY fires once `seconds` have passed. */
static inline void rs_watch_wait(void *loop, rs_watch_t *watch, double seconds) {
    struct ev_loop *l = (struct ev_loop *)loop;
    ev_io_stop(l, &watch->io);
    ev_timer_stop(l, &watch->retry);
    ev_timer_set(&watch->retry, seconds, 0.);
    ev_timer_start(l, &watch->retry);
}

/* Stops all three (the watch may then be freed). */
static inline void rs_watch_stop(void *loop, rs_watch_t *watch) {
    struct ev_loop *l = (struct ev_loop *)loop;
    ev_io_stop(l, &watch->io);
    ev_timer_stop(l, &watch->deadline);
    ev_timer_stop(l, &watch->retry);
}

#endif
