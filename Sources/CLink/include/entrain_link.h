#ifndef ENTRAIN_LINK_H
#define ENTRAIN_LINK_H
// A C face on Ableton Link (the packaged header-only C++ library), for Swift.
//
// Times are microseconds on the JACK clock (jack_get_time): the shim maps them onto Link's own
// clock with both clocks read side by side, so callers never see Link's clock.
// Functions marked "audio thread" use Link's capture/commit of the audio session state: no
// allocation, no locks; call them from one real-time thread only. The others are for
// ordinary threads.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct entrain_link entrain_link;

/// Where the session is at one moment.
typedef struct {
    double tempo;     // BPM
    double beat;      // beats on the session's timeline (may be negative right after joining)
    double phase;     // beat modulo the quantum, 0 ..< quantum
    bool playing;     // start/stop state (when start/stop sync is on)
} entrain_link_moment;

/// A session of one (not yet enabled) at `bpm`. NULL when Link could not be set up.
entrain_link *entrain_link_new(double bpm);
void entrain_link_free(entrain_link *link);

void entrain_link_enable(entrain_link *link, bool enable);
bool entrain_link_is_enabled(const entrain_link *link);
void entrain_link_enable_start_stop_sync(entrain_link *link, bool enable);
size_t entrain_link_peers(const entrain_link *link);

/// Application thread: the session now, at JACK time `jack_now`.
void entrain_link_app_moment(entrain_link *link, int64_t jack_now, double quantum, entrain_link_moment *out);
/// Application thread: a new tempo from `jack_now` on.
void entrain_link_app_set_tempo(entrain_link *link, double bpm, int64_t jack_now);
/// Application thread: start or stop the session's transport at `jack_now`.
void entrain_link_app_set_playing(entrain_link *link, bool playing, int64_t jack_now);

/// Audio thread: the session at JACK time `jack_time` (`jack_now` is the JACK clock read now,
/// for the mapping onto Link's clock).
void entrain_link_audio_moment(entrain_link *link, int64_t jack_time, int64_t jack_now, double quantum,
                               entrain_link_moment *out);
/// Audio thread: JACK time at which the session reaches `beat`.
int64_t entrain_link_audio_time_at_beat(entrain_link *link, double beat, int64_t jack_now, double quantum);
/// Audio thread: lead the session: `tempo` from `jack_time`, with the beat `beat` falling there
/// (forced: a leader moves the others' phase rather than its own).
void entrain_link_audio_lead(entrain_link *link, double tempo, double beat, int64_t jack_time, int64_t jack_now,
                             double quantum);

#ifdef __cplusplus
}
#endif
#endif
