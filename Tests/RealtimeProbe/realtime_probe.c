// LD_PRELOAD interposer: counts what the JACK process thread does that real-time code must not.
//
// The thread that calls jack_port_get_buffer is the process thread; from then on every
// malloc/calloc/realloc/free/posix_memalign and pthread_mutex_lock on that thread is counted.
// At exit the counts go to the file named by ENTRAIN_RT_PROBE_OUT as "key value" lines.
// Built as a shared library by the Makefile (not linked into anything).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread int on_process_thread;
static __thread int inside_probe;  // dlsym itself may allocate: never count our own calls
static atomic_long mallocs, frees, locks, cycles;

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef int (*memalign_fn)(void **, size_t, size_t);
typedef int (*lock_fn)(pthread_mutex_t *);
typedef void *(*get_buffer_fn)(void *, unsigned int);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static free_fn real_free;
static memalign_fn real_memalign;
static lock_fn real_lock;
static get_buffer_fn real_get_buffer;

// dlsym may call calloc before real_calloc is known: serve those from a static arena.
static char arena[4096];
static size_t arena_used;

static void resolve(void) {
    if (real_malloc) return;
    inside_probe = 1;
    real_calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
    real_malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
    real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
    real_free = (free_fn)dlsym(RTLD_NEXT, "free");
    real_memalign = (memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
    real_lock = (lock_fn)dlsym(RTLD_NEXT, "pthread_mutex_lock");
    real_get_buffer = (get_buffer_fn)dlsym(RTLD_NEXT, "jack_port_get_buffer");
    inside_probe = 0;
}

#define COUNT(counter) do { if (on_process_thread && !inside_probe) atomic_fetch_add(&counter, 1); } while (0)

void *malloc(size_t n) { resolve(); COUNT(mallocs); return real_malloc(n); }
void *calloc(size_t a, size_t b) {
    if (!real_calloc) {  // during resolve()
        size_t n = (a * b + 15) & ~(size_t)15;
        if (arena_used + n > sizeof arena) return NULL;
        void *p = arena + arena_used;
        arena_used += n;
        return p;
    }
    COUNT(mallocs);
    return real_calloc(a, b);
}
void *realloc(void *p, size_t n) { resolve(); COUNT(mallocs); return real_realloc(p, n); }
void free(void *p) {
    if ((char *)p >= arena && (char *)p < arena + sizeof arena) return;
    resolve();
    if (p) COUNT(frees);
    real_free(p);
}
int posix_memalign(void **out, size_t align, size_t n) { resolve(); COUNT(mallocs); return real_memalign(out, align, n); }
int pthread_mutex_lock(pthread_mutex_t *m) { resolve(); COUNT(locks); return real_lock(m); }

void *jack_port_get_buffer(void *port, unsigned int frames) {
    resolve();
    if (!on_process_thread) on_process_thread = 1;
    atomic_fetch_add(&cycles, 1);
    return real_get_buffer(port, frames);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("ENTRAIN_RT_PROBE_OUT");
    if (!path) return;
    inside_probe = 1;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "buffer_calls %ld\nmallocs %ld\nfrees %ld\nmutex_locks %ld\n",
            atomic_load(&cycles), atomic_load(&mallocs), atomic_load(&frees), atomic_load(&locks));
    fclose(f);
}
