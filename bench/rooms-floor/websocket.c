// The WebSocket side of the floor (RFC 6455): the upgrade answer and unfragmented frames.
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "floor.h"

static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

// The value of header `name` in the request `head` (NUL-terminated), copied into `value`.
static int header(const char *head, const char *name, char *value, size_t size) {
    size_t name_length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_length) != 0 || start[name_length] != ':') continue;
        start += name_length + 1;
        while (*start == ' ') start++;
        const char *end = strstr(start, "\r\n");
        size_t length = end ? (size_t)(end - start) : strlen(start);
        if (length >= size) return 0;
        memcpy(value, start, length);
        value[length] = 0;
        return 1;
    }
    return 0;
}

int websocket_upgrade(struct connection *c) {
    buffer_append(&c->in, "", 1);  // a NUL for the string functions, removed below
    c->in.length--;
    char *end = strstr(c->in.bytes, "\r\n\r\n");
    if (!end) return c->in.length > 16384 ? -1 : 0;
    char key[128], protocol[256], accept_key[64];
    if (!header(c->in.bytes, "Sec-WebSocket-Key", key, sizeof key)) return -1;
    char joined[sizeof key + sizeof guid];
    strcpy(joined, key);
    strcat(joined, guid);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    if (!EVP_Digest(joined, strlen(joined), digest, &digest_length, EVP_sha1(), NULL)) return -1;
    EVP_EncodeBlock((unsigned char *)accept_key, digest, (int)digest_length);
    struct buffer reply = {0};
    buffer_printf(&reply,
                  "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n", accept_key);
    if (header(c->in.bytes, "Sec-WebSocket-Protocol", protocol, sizeof protocol) && strstr(protocol, "rivesync.v1"))
        buffer_printf(&reply, "Sec-WebSocket-Protocol: rivesync.v1\r\n");
    buffer_printf(&reply, "\r\n");
    connection_send(c, reply.bytes, reply.length);
    free(reply.bytes);
    buffer_consume(&c->in, (size_t)(end + 4 - c->in.bytes));
    c->upgraded = 1;
    return 1;
}

void websocket_frame(struct buffer *out, int opcode, const char *payload, size_t length) {
    unsigned char head[10] = {(unsigned char)(0x80 | opcode)};
    size_t head_length = 2;
    if (length < 126) {
        head[1] = (unsigned char)length;
    } else if (length < 65536) {
        head[1] = 126;
        head[2] = (unsigned char)(length >> 8);
        head[3] = (unsigned char)length;
        head_length = 4;
    } else {
        head[1] = 127;
        for (int i = 0; i < 8; i++) head[2 + i] = (unsigned char)((uint64_t)length >> (56 - 8 * i));
        head_length = 10;
    }
    buffer_append(out, head, head_length);
    buffer_append(out, payload, length);
}

int websocket_read(struct connection *c, void (*message)(struct connection *, char *, size_t)) {
    size_t at = 0;
    int result = 0;
    while (c->in.length - at >= 2) {
        unsigned char *frame = (unsigned char *)c->in.bytes + at;
        size_t available = c->in.length - at, head = 2;
        uint64_t length = frame[1] & 0x7f;
        if (length == 126) {
            if (available < 4) break;
            length = (uint64_t)frame[2] << 8 | frame[3];
            head = 4;
        } else if (length == 127) {
            if (available < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = length << 8 | frame[2 + i];
            head = 10;
        }
        int masked = frame[1] & 0x80;
        if (masked) head += 4;
        if (available < head || available - head < length) break;
        unsigned char *payload = frame + head;
        if (masked)
            for (uint64_t i = 0; i < length; i++) payload[i] ^= frame[head - 4 + (i & 3)];
        int opcode = frame[0] & 0x0f;
        if (!(frame[0] & 0x80) || opcode == 0 || opcode == 8) {  // fragments are not spoken; close
            result = -1;
            break;
        }
        if (opcode == 1 || opcode == 2) {
            message(c, (char *)payload, (size_t)length);
        } else if (opcode == 9) {
            struct buffer pong = {0};
            websocket_frame(&pong, 0xa, (const char *)payload, (size_t)length);
            connection_send(c, pong.bytes, pong.length);
            free(pong.bytes);
        }
        at += head + (size_t)length;
    }
    buffer_consume(&c->in, at);
    return result;
}
