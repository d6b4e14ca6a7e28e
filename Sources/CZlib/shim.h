#ifndef SEATKIT_CZLIB_SHIM_H
#define SEATKIT_CZLIB_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* zlib's init calls are macros (they pass the library version and struct size), which Swift cannot
   call; these wrappers can. Both return a malloc'd buffer in *out (free it) and its length, or NULL. */

/* gzip (RFC 1952) of n bytes at level 1–9. */
static inline unsigned char *seatkit_gzip(const unsigned char *in, size_t n, int level, size_t *out_length) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    uLong bound = deflateBound(&s, (uLong)n);
    unsigned char *out = malloc(bound);
    if (!out) { deflateEnd(&s); return NULL; }
    s.next_in = (Bytef *)in; s.avail_in = (uInt)n;
    s.next_out = out; s.avail_out = (uInt)bound;
    int rc = deflate(&s, Z_FINISH);
    *out_length = s.total_out;
    deflateEnd(&s);
    if (rc != Z_STREAM_END) { free(out); return NULL; }
    return out;
}

/* The bytes a gzip stream holds (at most max_length of them), or NULL when it is not valid gzip. */
static inline unsigned char *seatkit_gunzip(const unsigned char *in, size_t n, size_t max_length, size_t *out_length) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, 15 + 16) != Z_OK) return NULL;
    size_t capacity = n * 4 + 1024;
    if (capacity > max_length) capacity = max_length;
    unsigned char *out = malloc(capacity);
    if (!out) { inflateEnd(&s); return NULL; }
    s.next_in = (Bytef *)in; s.avail_in = (uInt)n;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (s.total_out == capacity) {
            if (capacity >= max_length) { free(out); inflateEnd(&s); return NULL; }
            size_t grown = capacity * 2 > max_length ? max_length : capacity * 2;
            unsigned char *bigger = realloc(out, grown);
            if (!bigger) { free(out); inflateEnd(&s); return NULL; }
            out = bigger; capacity = grown;
        }
        s.next_out = out + s.total_out; s.avail_out = (uInt)(capacity - s.total_out);
        rc = inflate(&s, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) { free(out); inflateEnd(&s); return NULL; }
    }
    *out_length = s.total_out;
    inflateEnd(&s);
    return out;
}
#endif
