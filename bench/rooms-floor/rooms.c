// The rooms subset of protocol v1 (protocol/PROTOCOL.md), in the daemon's own wire format:
// hello -> welcome; createStateMachine -> target (a room: its values and sequence);
// subscribe -> snapshot; set -> one batch to every subscriber of the room, then the ack.
// Anything else is answered with an error.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"

enum { max_values = 16, table_size = 1 << 17 };

struct value {
    char path[64];
    struct buffer json;  // the value as JSON text
};

struct room {
    char name[128];
    uint64_t seq, commands;
    struct value values[max_values];
    size_t value_count;
    struct connection **members;
    size_t member_count, member_capacity;
};

static struct room *table[table_size];
static struct buffer text, frame;  // scratch: one message, then its frame

// A JSON token of `message`: the value of `"key":` (a string with its quotes, or a number).
struct token {
    const char *start;
    size_t length;
};

static struct token field(const char *message, size_t length, const char *key) {
    char pattern[64];
    size_t pattern_length = (size_t)snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *end = message + length;
    for (const char *at = message; at + pattern_length <= end; at++) {
        if (memcmp(at, pattern, pattern_length) != 0) continue;
        const char *start = at + pattern_length, *stop = start;
        while (start < end && *start == ' ') stop = ++start;
        if (start < end && *start == '"') {
            for (stop = start + 1; stop < end && *stop != '"'; stop++)
                if (*stop == '\\') stop++;
            if (stop < end) stop++;
        } else {
            while (stop < end && *stop != ',' && *stop != '}') stop++;
        }
        return (struct token){start, (size_t)(stop - start)};
    }
    return (struct token){NULL, 0};
}

// The characters of a string token without its quotes (escapes kept).
static struct token inner(struct token token) {
    if (token.length < 2 || token.start[0] != '"') return (struct token){NULL, 0};
    return (struct token){token.start + 1, token.length - 2};
}

static struct room **slot(struct token name) {
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = 0; i < name.length; i++) hash = (hash ^ (unsigned char)name.start[i]) * 1099511628211ull;
    for (size_t i = hash & (table_size - 1);; i = (i + 1) & (table_size - 1)) {
        struct room *room = table[i];
        if (!room || (strlen(room->name) == name.length && memcmp(room->name, name.start, name.length) == 0))
            return &table[i];
    }
}

static void reply(struct connection *c) {
    frame.length = 0;
    websocket_frame(&frame, 1, text.bytes, text.length);
    connection_send(c, frame.bytes, frame.length);
}

static void error(struct connection *c, struct token id, const char *code, const char *message) {
    text.length = 0;
    buffer_printf(&text, "{\"type\":\"error\",\"id\":%.*s,\"code\":\"%s\",\"message\":\"%s\"}", id.start ? (int)id.length : 4,
                  id.start ? id.start : "null", code, message);
    reply(c);
}

static void hello(struct connection *c, struct token id, struct token client) {
    if (client.start && client.length < sizeof c->client) {
        memcpy(c->client, client.start, client.length);
        c->client[client.length] = 0;
    }
    text.length = 0;
    buffer_printf(&text, "{\"type\":\"welcome\",\"id\":%.*s,\"protocol\":1,\"server\":\"bench-rooms-floor\",\"epoch\":\"e-floor\"}",
                  (int)id.length, id.start);
    reply(c);
}

static void create(struct connection *c, const char *message, size_t length, struct token id) {
    struct token name = inner(field(message, length, "name"));
    if (!name.start || name.length >= sizeof table[0]->name) {
        error(c, id, "invalid_request", "no name");
        return;
    }
    struct room **at = slot(name);
    if (*at) {
        error(c, id, "target_exists", "a target of that name exists");
        return;
    }
    struct room *room = calloc(1, sizeof *room);
    memcpy(room->name, name.start, name.length);
    *at = room;
    struct token file = field(message, length, "file"), artboard = field(message, length, "artboard"),
                 machine = field(message, length, "stateMachine"), rate = field(message, length, "rate");
    text.length = 0;
    buffer_printf(&text,
                  "{\"type\":\"target\",\"id\":%.*s,\"target\":\"%s\",\"name\":\"%s\",\"file\":%.*s,\"kind\":\"stateMachine\","
                  "\"artboard\":%.*s,\"stateMachine\":%.*s,\"mode\":\"auto\",\"rate\":%.*s,\"seq\":0,"
                  "\"bindings\":[{\"slot\":\"main\",\"instance\":1}],\"layers\":[],\"settled\":true}",
                  (int)id.length, id.start, room->name, room->name, (int)file.length, file.start, (int)artboard.length,
                  artboard.start, (int)machine.length, machine.start, rate.start ? (int)rate.length : 2,
                  rate.start ? rate.start : "60");
    reply(c);
}

static void subscribe(struct connection *c, struct token id, struct token target) {
    struct room *room = target.start ? *slot(target) : NULL;
    if (!room) {
        error(c, id, "no_such_target", "no such target");
        return;
    }
    if (room->member_count == room->member_capacity) {
        room->member_capacity = room->member_capacity ? room->member_capacity * 2 : 8;
        room->members = realloc(room->members, room->member_capacity * sizeof *room->members);
    }
    room->members[room->member_count++] = c;
    c->rooms = realloc(c->rooms, (c->room_count + 1) * sizeof *c->rooms);
    c->rooms[c->room_count++] = room;
    text.length = 0;
    buffer_printf(&text,
                  "{\"type\":\"snapshot\",\"id\":%.*s,\"target\":\"%s\",\"epoch\":\"e-floor\",\"seq\":%llu,"
                  "\"bindings\":[{\"slot\":\"main\",\"instance\":1}],\"instances\":[{\"id\":1,\"viewModel\":\"Room\","
                  "\"name\":\"Default\",\"values\":{",
                  (int)id.length, id.start, room->name, (unsigned long long)room->seq);
    for (size_t i = 0; i < room->value_count; i++)
        buffer_printf(&text, "%s\"%s\":%.*s", i ? "," : "", room->values[i].path, (int)room->values[i].json.length,
                      room->values[i].json.bytes);
    buffer_printf(&text, "}}],\"presence\":[]}");
    reply(c);
}

static void set(struct connection *c, const char *message, size_t length, struct token id, struct token target) {
    struct room *room = target.start ? *slot(target) : NULL;
    if (!room) {
        error(c, id, "no_such_target", "no such target");
        return;
    }
    struct token path = inner(field(message, length, "path")), value = field(message, length, "value");
    if (!path.start || !value.start || path.length >= sizeof room->values[0].path) {
        error(c, id, "invalid_request", "set needs a path and a value");
        return;
    }
    size_t i = 0;
    while (i < room->value_count && !(strlen(room->values[i].path) == path.length &&
                                      memcmp(room->values[i].path, path.start, path.length) == 0))
        i++;
    if (i == max_values) {
        error(c, id, "no_such_property", "the floor keeps 16 values per room");
        return;
    }
    if (i == room->value_count) {
        memcpy(room->values[i].path, path.start, path.length);
        room->value_count++;
    }
    room->values[i].json.length = 0;
    buffer_append(&room->values[i].json, value.start, value.length);
    uint64_t seq = ++room->seq, command = ++room->commands;
    text.length = 0;
    buffer_printf(&text,
                  "{\"type\":\"batch\",\"target\":\"%s\",\"epoch\":\"e-floor\",\"seq\":%llu,\"effects\":[{\"op\":\"set\","
                  "\"paths\":[\"%s\"],\"instance\":1,\"property\":\"%s\",\"value\":%.*s}],\"commands\":[%llu],"
                  "\"authors\":[{\"client\":\"%s\"}]}",
                  room->name, (unsigned long long)seq, room->values[i].path, room->values[i].path, (int)value.length,
                  value.start, (unsigned long long)command, c->client);
    frame.length = 0;
    websocket_frame(&frame, 1, text.bytes, text.length);
    for (size_t m = 0; m < room->member_count; m++) connection_send(room->members[m], frame.bytes, frame.length);
    text.length = 0;
    buffer_printf(&text, "{\"type\":\"ack\",\"id\":%.*s,\"target\":\"%s\",\"seq\":%llu,\"command\":%llu}", (int)id.length,
                  id.start, room->name, (unsigned long long)seq, (unsigned long long)command);
    reply(c);
}

void rooms_message(struct connection *c, char *message, size_t length) {
    struct token type = inner(field(message, length, "type")), id = field(message, length, "id");
    struct token target = inner(field(message, length, "target"));
    if (!id.start) id = (struct token){"null", 4};
#define IS(name) (type.length == sizeof name - 1 && memcmp(type.start, name, type.length) == 0)
    if (!type.start) {
        error(c, id, "invalid_request", "no type");
    } else if (IS("set")) {
        set(c, message, length, id, target);
    } else if (IS("subscribe")) {
        subscribe(c, id, target);
    } else if (IS("createStateMachine")) {
        create(c, message, length, id);
    } else if (IS("hello")) {
        hello(c, id, inner(field(message, length, "client")));
    } else {
        error(c, id, "unsupported", "the rooms floor speaks hello, createStateMachine, subscribe and set");
    }
#undef IS
}

void rooms_forget(struct connection *c) {
    for (size_t r = 0; r < c->room_count; r++) {
        struct room *room = c->rooms[r];
        for (size_t m = 0; m < room->member_count; m++)
            if (room->members[m] == c) {
                room->members[m] = room->members[--room->member_count];
                break;
            }
    }
    free(c->rooms);
    c->rooms = NULL;
    c->room_count = 0;
}
