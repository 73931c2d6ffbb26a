/* store_faults.c -- fault injection for the store, as SQLite tests itself:
 * a test build (CITADEL_FAULTS) can be told to fail one chosen write the
 * way a disk or a neighbour would, to prove that nothing unstored is ever
 * acknowledged and that the server recovers once the fault clears.
 *
 * The environment variable CITADEL_STORE_FAULT, read when the first store
 * opens, says what to do:
 *   count    log every write ("store: write N: what") on stderr
 *   N:io     the Nth write (counted from 1, over the whole process) fails
 *            as if the disk returned an I/O error   (SQLITE_IOERR_WRITE)
 *   N:full   ... as if the disk were full           (SQLITE_FULL)
 *   N:busy   ... as if another process held the database's write lock
 *            for longer than the store waits        (SQLITE_BUSY)
 * Every write is logged in these modes too. A write is one call of a
 * store function that changes something (store_write_begin); the fault
 * stays active until the next write begins, so the whole of the Nth write
 * fails and nothing else does.
 *
 * It works beneath SQLite, as a VFS that wraps the default one: while a
 * fault is active, xWrite fails (io, full) or taking a write lock fails
 * (busy: xLock at RESERVED or above, and exclusive xShmLock, which is how
 * WAL mode takes its write lock). SQLite then takes its own error paths,
 * rolls the transaction back and reports the error, as it would on a real
 * disk. The checkpointer's connection uses SQLite's own VFS and never
 * fails. Builds without CITADEL_FAULTS only count writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store_int.h"

#ifdef CITADEL_FAULTS

enum { KIND_NONE, KIND_IO, KIND_FULL, KIND_BUSY };

static struct {
    int read;            /* the environment was read */
    int log;             /* log every write */
    long at;             /* the write to fail, 0 for none */
    int kind;
    int active;          /* the kind failing right now */
    long writes;         /* over every store of the process */
    sqlite3_vfs *real;
    sqlite3_vfs vfs;
} F;

typedef struct ffile {
    sqlite3_file base;
    sqlite3_file *real;  /* follows this struct in the same allocation */
} ffile;

#define REAL(f) (((ffile *)(f))->real)
#define RM(f) (REAL(f)->pMethods)

static int f_close(sqlite3_file *f)
{
    return RM(f)->xClose(REAL(f));
}

static int f_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
    return RM(f)->xRead(REAL(f), buf, amt, off);
}

static int f_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
    if (F.active == KIND_IO)
        return SQLITE_IOERR_WRITE;
    if (F.active == KIND_FULL)
        return SQLITE_FULL;
    return RM(f)->xWrite(REAL(f), buf, amt, off);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    return RM(f)->xTruncate(REAL(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
    return RM(f)->xSync(REAL(f), flags);
}

static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return RM(f)->xFileSize(REAL(f), size);
}

static int f_lock(sqlite3_file *f, int level)
{
    if (F.active == KIND_BUSY && level >= SQLITE_LOCK_RESERVED)
        return SQLITE_BUSY;
    return RM(f)->xLock(REAL(f), level);
}

static int f_unlock(sqlite3_file *f, int level)
{
    return RM(f)->xUnlock(REAL(f), level);
}

static int f_reserved(sqlite3_file *f, int *out)
{
    return RM(f)->xCheckReservedLock(REAL(f), out);
}

static int f_control(sqlite3_file *f, int op, void *arg)
{
    return RM(f)->xFileControl(REAL(f), op, arg);
}

static int f_sector(sqlite3_file *f)
{
    return RM(f)->xSectorSize(REAL(f));
}

static int f_chars(sqlite3_file *f)
{
    return RM(f)->xDeviceCharacteristics(REAL(f));
}

static int f_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out)
{
    return RM(f)->xShmMap(REAL(f), region, size, extend, out);
}

static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    if (F.active == KIND_BUSY && (flags & SQLITE_SHM_LOCK) && (flags & SQLITE_SHM_EXCLUSIVE))
        return SQLITE_BUSY;
    return RM(f)->xShmLock(REAL(f), offset, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
    RM(f)->xShmBarrier(REAL(f));
}

static int f_shm_unmap(sqlite3_file *f, int del)
{
    return RM(f)->xShmUnmap(REAL(f), del);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **out)
{
    return RM(f)->xFetch(REAL(f), off, amt, out);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    return RM(f)->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods methods = {
    3,          f_close,   f_read,        f_write,     f_truncate, f_sync,
    f_size,     f_lock,    f_unlock,      f_reserved,  f_control,  f_sector,
    f_chars,    f_shm_map, f_shm_lock,    f_shm_barrier, f_shm_unmap, f_fetch,
    f_unfetch,
};

static int f_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
    (void)vfs;
    ffile *p = (ffile *)f;
    p->real = (sqlite3_file *)(p + 1);
    int rc = F.real->xOpen(F.real, name, p->real, flags, out);
    /* SQLite closes a file whose pMethods is set, even when xOpen failed;
     * the unix VFS's files are version 3, as `methods` assumes */
    f->pMethods = p->real->pMethods && p->real->pMethods->iVersion >= 3 ? &methods : NULL;
    if (rc == SQLITE_OK && !f->pMethods) {
        if (p->real->pMethods)
            p->real->pMethods->xClose(p->real);
        return SQLITE_CANTOPEN;
    }
    return rc;
}

static void read_env(void)
{
    if (F.read)
        return;
    F.read = 1;
    const char *e = getenv("CITADEL_STORE_FAULT");
    if (!e || !*e)
        return;
    F.log = 1;
    char kind[16] = "";
    long at = 0;
    if (strcmp(e, "count") != 0 && sscanf(e, "%ld:%15s", &at, kind) == 2 && at > 0) {
        F.at = at;
        F.kind = strcmp(kind, "io") == 0     ? KIND_IO
                 : strcmp(kind, "full") == 0 ? KIND_FULL
                 : strcmp(kind, "busy") == 0 ? KIND_BUSY
                                             : KIND_NONE;
        if (F.kind == KIND_NONE)
            F.at = 0;
    }
    if (F.kind == KIND_NONE)
        return;
    F.real = sqlite3_vfs_find(NULL);
    if (!F.real)
        return;
    F.vfs = *F.real;
    F.vfs.zName = "citadel-faults";
    F.vfs.szOsFile = (int)sizeof(ffile) + F.real->szOsFile;
    F.vfs.xOpen = f_open;
    F.vfs.pNext = NULL;
    if (sqlite3_vfs_register(&F.vfs, 0) != SQLITE_OK)
        F.real = NULL;
}

const char *store_faults_vfs(void)
{
    read_env();
    return F.real ? F.vfs.zName : NULL;
}

void store_write_begin(store *s, const char *what)
{
    s->writes++;
    F.writes++;
    F.active = F.at == F.writes ? F.kind : KIND_NONE;
    if (F.log) {
        static const char *const names[] = {"", " (failing: io)", " (failing: full)",
                                            " (failing: busy)"};
        fprintf(stderr, "store: write %ld: %s%s\n", F.writes, what, names[F.active]);
    }
}

void store_faults_end(void)
{
    F.active = KIND_NONE;
}

#else

const char *store_faults_vfs(void)
{
    return NULL;
}

void store_write_begin(store *s, const char *what)
{
    (void)what;
    s->writes++;
}

void store_faults_end(void)
{
}

#endif
