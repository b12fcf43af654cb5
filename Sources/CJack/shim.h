#ifndef ENTRAIN_CJACK_SHIM_H
#define ENTRAIN_CJACK_SHIM_H
// Swift cannot call C variadics or set FPU flags; these tiny wrappers do it.
#include <jack/jack.h>
#include <jack/metadata.h>
#include <jack/uuid.h>
#include <jack/statistics.h>
#include <jack/midiport.h>
#include <pthread.h>
#include <stddef.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/// jack_client_open with an optional server name (NULL = default server).
static inline jack_client_t *entrain_jack_client_open(const char *name, jack_options_t options,
                                                      jack_status_t *status, const char *server) {
    if (server != NULL) {
        return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
    }
    return jack_client_open(name, options, status);
}

/// Flush denormals to zero on the calling thread (FTZ + DAZ), called from the thread-init callback.
static inline void entrain_flush_denormals(void) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | 0x8040);
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr | (1UL << 24)));
#endif
}

int pthread_setname_np(pthread_t thread, const char *name);  // glibc's, a GNU extension

/// Name the calling thread (`top -H`, /proc/PID/task/*/comm): the process thread's is
/// `entrain-jack`, set once from the thread-init callback.
static inline void entrain_name_this_thread(const char *name) {
#if defined(__linux__)
    pthread_setname_np(pthread_self(), name);
#endif
}
#endif
