/* net_tls.c -- net_frames.h's look at what clients send, for connections
 * served over TLS: lws reads them through OpenSSL's SSL_read, so recv sees
 * only ciphertext. This file defines SSL_read for the whole program: it
 * calls OpenSSL's own, then hands what it deciphered to net_frames_look;
 * a request net_frames refuses is answered through the same TLS session
 * (then closed: close_notify, no more writes, what is left drained), and
 * the read fails as a reset connection, so lws closes without parsing it.
 *
 * The invariant: every byte OpenSSL deciphers for a socket lws accepted
 * reaches net_frames_look, on the loop's thread, before lws sees it (and
 * nothing else changes: every other caller, such as the mail sender's
 * TLS on its own threads, gets OpenSSL's answer untouched).
 */
#include <dlfcn.h>
#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <string.h>

#include "net_frames.h"

typedef int (*ssl_read_fn)(SSL *ssl, void *buf, int num);
static ssl_read_fn real_read;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void find_real(void)
{
    /* the next definition after ours: libssl's */
    void *sym = dlsym(RTLD_NEXT, "SSL_read");
    memcpy(&real_read, &sym, sizeof real_read);
}

int SSL_read(SSL *ssl, void *buf, int num)
{
    pthread_once(&once, find_real);
    if (!real_read) {
        errno = ENOSYS;
        return -1;
    }
    int n = real_read(ssl, buf, num);
    if (n <= 0)
        return n;
    int fd = SSL_get_fd(ssl);
    int status = net_frames_look(fd, 1, buf, (size_t)n);
    if (!status)
        return n;
    if (status > 0) {
        char answer[512];
        int len = net_frames_refusal(answer, sizeof answer, status);
        if (len > 0 && SSL_write(ssl, answer, len) == len)
            SSL_shutdown(ssl);
        net_frames_drain(fd);
    }
    /* lws asks SSL_get_error, which reads the error queue first: a
     * system error there is a reset connection, closed at once */
    ERR_clear_error();
    ERR_raise(ERR_LIB_SYS, ECONNRESET);
    errno = ECONNRESET;
    return -1;
}
