// Growable byte buffers for the floor's input and output.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"

static void reserve(struct buffer *buffer, size_t extra) {
    if (buffer->length + extra <= buffer->capacity) return;
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->length + extra) capacity *= 2;
    buffer->bytes = realloc(buffer->bytes, capacity);
    if (!buffer->bytes) abort();
    buffer->capacity = capacity;
}

void buffer_append(struct buffer *buffer, const void *bytes, size_t length) {
    reserve(buffer, length);
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

void buffer_printf(struct buffer *buffer, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int needed = vsnprintf(NULL, 0, format, args);
    va_end(args);
    reserve(buffer, (size_t)needed + 1);
    va_start(args, format);
    vsnprintf(buffer->bytes + buffer->length, (size_t)needed + 1, format, args);
    va_end(args);
    buffer->length += (size_t)needed;
}

void buffer_consume(struct buffer *buffer, size_t length) {
    memmove(buffer->bytes, buffer->bytes + length, buffer->length - length);
    buffer->length -= length;
}
