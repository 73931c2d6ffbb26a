/* once.h -- an initializer run exactly once, before any caller goes on:
 * pthread_once where there are threads, a flag in the WebAssembly build
 * (web/, one thread per instance, no pthreads in its libc).
 */
#ifndef CITADEL_ONCE_H
#define CITADEL_ONCE_H

#ifdef __wasi__
typedef struct { int done; } once_t;
#define ONCE_INIT { 0 }
static inline void run_once(once_t *o, void (*init)(void))
{
    if (!o->done) {
        o->done = 1;
        init();
    }
}
#else
#include <pthread.h>
typedef pthread_once_t once_t;
#define ONCE_INIT PTHREAD_ONCE_INIT
static inline void run_once(once_t *o, void (*init)(void))
{
    pthread_once(o, init);
}
#endif

#endif
