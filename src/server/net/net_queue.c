/* net_queue.c -- net_queue.h: a connection's queue of writes, in blocks
 * mapped for it alone.
 *
 * The invariant: every block in a queue holds at least one entry not yet
 * forgotten, entries laid one after another from `rd` (the first) to `wr`
 * (the free room); a block is freed as soon as it holds none, so a queue
 * dropped or written out gives all its memory back. A queue's first block,
 * made when it was empty, is one entry long and on the heap: a reader that
 * keeps up never has more than that waiting, and costs no mapping per
 * message. Every block after it is mapped (BLOCK_BYTES at least), and
 * unmapping gives it back to the system, not to the heap.
 */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS */
#include <uv.h>  /* before libwebsockets.h, as in net.c */
#include <libwebsockets.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "net_queue.h"

#define BLOCK_BYTES (64 * 1024)  /* a block, unless one entry needs more */
#define ALIGN 16

typedef struct entry {
    size_t len;
    unsigned char data[];  /* LWS_PRE bytes of room, then the entry's bytes */
} entry;

struct net_queue_block {
    net_queue_block *next;
    size_t size;  /* bytes of the block, this header included */
    size_t rd, wr;
    int mapped;   /* mmap's, else malloc's */
};

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The bytes an entry of len takes in a block. */
static size_t entry_bytes(size_t len)
{
    return round_up(sizeof(entry) + LWS_PRE + len, ALIGN);
}

static size_t block_head(void)
{
    return round_up(sizeof(net_queue_block), ALIGN);
}

/* A new block with room for `need` bytes of entries, or NULL: on the heap
 * and just that long, or mapped and BLOCK_BYTES at least. */
static net_queue_block *block_new(size_t need, int mapped)
{
    size_t size = block_head() + need;
    void *p;
    if (mapped) {
        size = round_up(size > BLOCK_BYTES ? size : BLOCK_BYTES,
                        (size_t)sysconf(_SC_PAGESIZE));
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
    } else if (!(p = malloc(size))) {
        return NULL;
    }
    net_queue_block *b = p;
    b->next = NULL;
    b->size = size;
    b->rd = b->wr = block_head();
    b->mapped = mapped;
    return b;
}

static void block_free(net_queue_block *b)
{
    if (b->mapped)
        munmap(b, b->size);
    else
        free(b);
}

static entry *entry_at(net_queue_block *b, size_t off)
{
    return (entry *)(void *)((unsigned char *)b + off);
}

unsigned char *net_queue_push(net_queue *q, size_t len)
{
    size_t need = entry_bytes(len);
    net_queue_block *b = q->tail;
    if (!b || b->size - b->wr < need) {
        b = block_new(need, q->head != NULL);
        if (!b)
            return NULL;
        if (q->tail)
            q->tail->next = b;
        else
            q->head = b;
        q->tail = b;
    }
    entry *e = entry_at(b, b->wr);
    b->wr += need;
    e->len = len;
    q->bytes += len;
    return e->data + LWS_PRE;
}

unsigned char *net_queue_first(const net_queue *q, size_t *len)
{
    if (!q->head)
        return NULL;
    entry *e = entry_at(q->head, q->head->rd);
    *len = e->len;
    return e->data + LWS_PRE;
}

void net_queue_pop(net_queue *q)
{
    net_queue_block *b = q->head;
    if (!b)
        return;
    entry *e = entry_at(b, b->rd);
    q->bytes -= e->len;
    b->rd += entry_bytes(e->len);
    if (b->rd == b->wr) {  /* its last entry: the block goes */
        q->head = b->next;
        if (!q->head)
            q->tail = NULL;
        block_free(b);
    }
}

void net_queue_drop(net_queue *q)
{
    while (q->head) {
        net_queue_block *b = q->head;
        q->head = b->next;
        block_free(b);
    }
    q->tail = NULL;
    q->bytes = 0;
}
