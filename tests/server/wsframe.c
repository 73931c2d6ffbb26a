/* wsframe.c -- see wsframe.h. Base64 is libsodium's (the library the server
 * links), SHA-1 is OpenSSL's (libsodium has none). */
#include "wsframe.h"

#include <openssl/sha.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

void wsframe_base64(const unsigned char *in, size_t len, char *out, size_t out_size)
{
    sodium_bin2base64(out, out_size, in, len, sodium_base64_VARIANT_ORIGINAL);
}

void wsframe_key(const unsigned char nonce[16], char key[WSFRAME_KEY])
{
    wsframe_base64(nonce, 16, key, WSFRAME_KEY);
}

void wsframe_accept(const char *key, char accept[WSFRAME_ACCEPT])
{
    char cat[128];
    snprintf(cat, sizeof cat, "%s%s", key, WS_GUID);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)cat, strlen(cat), digest);
    wsframe_base64(digest, sizeof digest, accept, WSFRAME_ACCEPT);
}

size_t wsframe_head(unsigned char head[WSFRAME_HEAD_MAX], int opcode, int fin, size_t len,
                    const unsigned char mask[4])
{
    size_t h = 0;
    head[h++] = (unsigned char)((fin ? 0x80 : 0) | (opcode & 0x0f));
    if (len < 126) {
        head[h++] = (unsigned char)(0x80 | len);
    } else if (len <= 0xffff) {
        head[h++] = 0x80 | 126;
        head[h++] = (unsigned char)(len >> 8);
        head[h++] = (unsigned char)len;
    } else {
        head[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            head[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    memcpy(head + h, mask, 4);
    return h + 4;
}

void wsframe_mask(unsigned char *data, size_t len, const unsigned char mask[4])
{
    for (size_t i = 0; i < len; i++)
        data[i] ^= mask[i & 3];
}

int wsframe_read(const unsigned char *p, size_t have, uint64_t max, wsframe *f)
{
    if (have < 2)
        return 0;
    if ((p[0] & 0x70) || (p[1] & 0x80))
        return -1;   /* reserved bits, or a masked frame from a server */
    uint64_t n = p[1] & 0x7f;
    size_t h = 2;
    if (n == 126) {
        if (have < 4)
            return 0;
        n = (uint64_t)p[2] << 8 | p[3];
        h = 4;
    } else if (n == 127) {
        if (have < 10)
            return 0;
        n = 0;
        for (int i = 0; i < 8; i++)
            n = n << 8 | p[2 + i];
        h = 10;
    }
    if (n > max)
        return -2;
    if (have - h < n)
        return 0;
    f->opcode = p[0] & 0x0f;
    f->fin = (p[0] & 0x80) != 0;
    f->head = h;
    f->len = (size_t)n;
    return 1;
}
