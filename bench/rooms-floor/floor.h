// bench-rooms-floor: a minimal C server speaking the rooms subset of rivesync protocol v1
// (hello, createStateMachine, subscribe, set -> ack + one batch to each room member) on one
// epoll thread, as the floor of bench/run.py's rooms workload (bench/README.md, issue 23).
// It keeps each room's values and sequence, and nothing else: no advances, no history, no
// coalescing, no limits.
#ifndef ROOMS_FLOOR_H
#define ROOMS_FLOOR_H

#include <stddef.h>
#include <stdint.h>

// A growable byte buffer.
struct buffer {
    char *bytes;
    size_t length, capacity;
};

void buffer_append(struct buffer *buffer, const void *bytes, size_t length);
void buffer_printf(struct buffer *buffer, const char *format, ...) __attribute__((format(printf, 2, 3)));
void buffer_consume(struct buffer *buffer, size_t length);

struct room;

// One client connection: the HTTP upgrade, then WebSocket frames.
struct connection {
    int fd;
    int upgraded;
    int dirty;  // has output queued since the last flush
    int writing;  // waits for EPOLLOUT (the socket took only part of its output)
    struct buffer in, out;
    char client[64];  // the hello's client name (the batches' author)
    struct room **rooms;  // rooms subscribed to
    size_t room_count;
};

// websocket.c: the upgrade and the framing.
// Answers the HTTP upgrade request at the start of `c->in`; returns 1 once answered, 0 while
// incomplete, -1 on a request that is not a WebSocket upgrade.
int websocket_upgrade(struct connection *c);
// Calls `message` for each complete text frame in `c->in`, answers pings and closes; returns
// -1 when the connection is to be closed.
int websocket_read(struct connection *c, void (*message)(struct connection *, char *, size_t));
// Appends `payload` to `out` as one unmasked frame of `opcode` (1: text, 0xa: pong).
void websocket_frame(struct buffer *out, int opcode, const char *payload, size_t length);

// rooms.c: the protocol.
void rooms_message(struct connection *c, char *text, size_t length);
void rooms_forget(struct connection *c);

// main.c: queues `bytes` for `c` (sent at the end of the current wake-up).
void connection_send(struct connection *c, const char *bytes, size_t length);

#endif
