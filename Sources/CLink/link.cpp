// The C face of Ableton Link: see include/entrain_link.h.
#include "entrain_link.h"

#include <ableton/Link.hpp>
#include <chrono>
#include <new>

using std::chrono::microseconds;

struct entrain_link {
    ableton::Link link;
    explicit entrain_link(double bpm) : link(bpm) {}
};

namespace {
// JACK time → Link time: the two clocks read side by side now.
microseconds linkTime(const entrain_link *l, int64_t jackTime, int64_t jackNow) {
    return l->link.clock().micros() + microseconds(jackTime - jackNow);
}

int64_t jackTime(const entrain_link *l, microseconds linkTime, int64_t jackNow) {
    return jackNow + (linkTime - l->link.clock().micros()).count();
}

void fill(const ableton::Link::SessionState &state, microseconds at, double quantum, entrain_link_moment *out) {
    out->tempo = state.tempo();
    out->beat = state.beatAtTime(at, quantum);
    out->phase = state.phaseAtTime(at, quantum);
    out->playing = state.isPlaying();
}
}  // namespace

extern "C" {

entrain_link *entrain_link_new(double bpm) {
    try {
        return new entrain_link(bpm);
    } catch (...) {
        return nullptr;
    }
}

void entrain_link_free(entrain_link *link) { delete link; }

void entrain_link_enable(entrain_link *link, bool enable) { link->link.enable(enable); }
bool entrain_link_is_enabled(const entrain_link *link) { return link->link.isEnabled(); }
void entrain_link_enable_start_stop_sync(entrain_link *link, bool enable) { link->link.enableStartStopSync(enable); }
size_t entrain_link_peers(const entrain_link *link) { return link->link.numPeers(); }

void entrain_link_app_moment(entrain_link *link, int64_t jack_now, double quantum, entrain_link_moment *out) {
    fill(link->link.captureAppSessionState(), linkTime(link, jack_now, jack_now), quantum, out);
}

void entrain_link_app_set_tempo(entrain_link *link, double bpm, int64_t jack_now) {
    auto state = link->link.captureAppSessionState();
    state.setTempo(bpm, linkTime(link, jack_now, jack_now));
    link->link.commitAppSessionState(state);
}

void entrain_link_app_set_playing(entrain_link *link, bool playing, int64_t jack_now) {
    auto state = link->link.captureAppSessionState();
    state.setIsPlaying(playing, linkTime(link, jack_now, jack_now));
    link->link.commitAppSessionState(state);
}

void entrain_link_audio_moment(entrain_link *link, int64_t jack_time, int64_t jack_now, double quantum,
                               entrain_link_moment *out) {
    fill(link->link.captureAudioSessionState(), linkTime(link, jack_time, jack_now), quantum, out);
}

int64_t entrain_link_audio_time_at_beat(entrain_link *link, double beat, int64_t jack_now, double quantum) {
    return jackTime(link, link->link.captureAudioSessionState().timeAtBeat(beat, quantum), jack_now);
}

void entrain_link_audio_lead(entrain_link *link, double tempo, double beat, int64_t jack_time, int64_t jack_now,
                             double quantum) {
    auto state = link->link.captureAudioSessionState();
    const auto at = linkTime(link, jack_time, jack_now);
    state.setTempo(tempo, at);
    state.forceBeatAtTime(beat, at, quantum);
    link->link.commitAudioSessionState(state);
}

}  // extern "C"
