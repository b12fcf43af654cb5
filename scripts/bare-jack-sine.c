/* The yardstick of scripts/bench-cpu.sh: the least a JACK client can be. One output port, a
 * 440 Hz sine written every period, an xrun callback that counts. Once a second it writes its
 * xrun count into the file named by its second argument (the bench reads it before and after
 * its window); SIGINT or SIGTERM ends it.
 *   cc -O2 -o bare-jack-sine bare-jack-sine.c -ljack -lm && ./bare-jack-sine NAME XRUN_FILE */
#include <jack/jack.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static jack_port_t *port;
static double phase, step;
static atomic_int xruns;
static volatile sig_atomic_t done;

static int process(jack_nframes_t frames, void *arg) {
    float *out = jack_port_get_buffer(port, frames);
    for (jack_nframes_t i = 0; i < frames; i++) {
        out[i] = (float)(0.1 * sin(phase));
        phase += step;
        if (phase > 2 * M_PI) phase -= 2 * M_PI;
    }
    return 0;
}

static int xrun(void *arg) {
    atomic_fetch_add(&xruns, 1);
    return 0;
}

static void stop(int sig) { done = 1; }

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s NAME XRUN_FILE\n", argv[0]);
        return 2;
    }
    jack_client_t *client = jack_client_open(argv[1], JackNoStartServer, NULL);
    if (!client) {
        fprintf(stderr, "bare-jack-sine: no JACK server\n");
        return 1;
    }
    step = 2 * M_PI * 440.0 / jack_get_sample_rate(client);
    port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(client, process, NULL);
    jack_set_xrun_callback(client, xrun, NULL);
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    if (!port || jack_activate(client)) {
        fprintf(stderr, "bare-jack-sine: cannot register or activate\n");
        return 1;
    }
    while (!done) {
        FILE *f = fopen(argv[2], "w");
        if (f) {
            fprintf(f, "%d\n", atomic_load(&xruns));
            fclose(f);
        }
        sleep(1);
    }
    jack_client_close(client);
    return 0;
}
