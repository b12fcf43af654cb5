#!/usr/bin/env python3
"""Build the real-recordings beat corpus: pieces rendered from Debian-packaged music projects with
the beat truth taken from the music's own tempo data (never from another beat tracker).

Sources (all installed by scripts/build-real-corpus.sh):
  lmms     LMMS demo projects (lmms-common), rendered by `lmms --allowroot render`; the project's
           tempo (no tempo automation in these) gives a beat every quarter note from the song start.
  hydrogen Hydrogen demo songs (hydrogen-data) rendered by h2cli with their recorded drum kits;
           some also at other tempi: the song's <bpm>
           is rewritten in a copy, every pattern is one 4/4 bar (192 ticks), so a beat is 48 ticks.
  midi     MIDI files (openttd-openmsx) through fluidsynth with the FluidR3 GM soundfont; the
           beats are the file's quarter notes through its own tempo map.

Each piece becomes NAME.wav (mono, 16-bit, 44.1 kHz) and NAME.beats.txt (seconds, one a line),
with the truth kept where the music sounds (from its first sound to where it falls 40 dB under
its loudness), and a line in MANIFEST.tsv (from NAME.info.tsv). Pieces already built are skipped.

Usage: real-corpus.py DIR [--only NAME,...]
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

RATE = 44100
LMMS_DEMOS = "/usr/share/lmms/projects/demos"
LMMS_SHORTIES = "/usr/share/lmms/projects/shorties"
H2_SONGS = "/usr/share/hydrogen/data/demo_songs"
OPENMSX = "/usr/share/games/openttd/baseset/openmsx"
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

# (name, project, genre). Tempo-automation-free 4/4 projects across the tempi LMMS ships.
LMMS = [
    ("lmms-mauiwowi-102", "Alf42red-Mauiwowi.mmpz", "reggae pop"),
    ("lmms-reggae-180", "CapDan/CapDan-ReggaeTry.mmpz", "reggae"),
    ("lmms-twilight-170", "CapDan/CapDan-TwilightArea-OriginalByAlf42red.mmpz", "drum and bass"),
    ("lmms-zerosum-144", "CapDan/CapDan-ZeroSumGame-OriginalByZakarra.mmpz", "electro"),
    ("lmms-cpu-128", "EsoXLB-CPU.mmpz", "electro house"),
    ("lmms-dr8-120", "Oglsdl-Dr8v2.mmpz", "electronic"),
    ("lmms-finalstep-140", "Saber-FinalStep.mmpz", "trance"),
    ("lmms-c64-127", "Skiessi/Skiessi-C64.mmpz", "chiptune"),
    ("lmms-progress-200", "Socceroos-Progress.mmpz", "fast electronic"),
    ("lmms-dearjondoe-087", "StrictProduction-DearJonDoe.mmp", "hip-hop"),
    ("lmms-axe80s-140", "Thomasso-AxeFromThe80s.mmpz", "80s rock"),
    ("lmms-crunk-130", "../shorties/Crunk(Demo).mmp", "crunk"),
    ("lmms-dirtylove-177", "../shorties/DirtyLove.mmpz", "drum and bass"),
    ("lmms-222-100", "../shorties/Skiessi-222.mmpz", "downtempo"),
    ("lmms-inner-148", "Settel-InnerRecreation.mmpz", "electronic"),
]

# (name, song, kit or None for the song's own, bpm or None for the song's own, genre).
# Another kit (h2cli -k) maps the song's instruments by number onto other sounds, leaving some
# patterns nearly silent: the variants keep the song's own kit and change only the tempo.
HYDROGEN = [
    ("h2-diddley-120", "GM_kit_Diddley.h2song", None, None, "Bo Diddley beat"),
    ("h2-jazzy-100", "GM_kit_Jazzy.h2song", None, None, "swing"),
    ("h2-demo1-115", "GM_kit_demo1.h2song", None, None, "rock"),
    ("h2-demo2-110", "GM_kit_demo2.h2song", None, None, "rock"),
    ("h2-demo3-115", "GM_kit_demo3.h2song", None, None, "pop rock"),
    ("h2-tr808-125", "TR808kit-demo.h2song", None, None, "808 electro"),
    ("h2-georgy-098", "tutorial_georgyporgy.h2song", None, None, "funk shuffle"),
    ("h2-demo1-076", "GM_kit_demo1.h2song", None, 76, "rock ballad"),
    ("h2-demo2-168", "GM_kit_demo2.h2song", None, 168, "fast rock"),
    ("h2-demo3-186", "GM_kit_demo3.h2song", None, 186, "punk"),
    ("h2-georgy-084", "tutorial_georgyporgy.h2song", None, 84, "slow shuffle"),
    ("h2-jazzy-140", "GM_kit_Jazzy.h2song", None, 140, "up-tempo swing"),
    ("h2-diddley-092", "GM_kit_Diddley.h2song", None, 92, "Bo Diddley beat"),
]

# (name, MIDI file in openttd-openmsx, genre)
MIDI = [
    ("midi-besharp-109", "be_sharp_bw_redfarn.mid", "jazz (17 tempi)"),
    ("midi-boogi-153", "boogi_marabi_redfarn.mid", "marabi boogie"),
    ("midi-cityblues-120", "city_blues_redfarn.mid", "blues"),
    ("midi-rolling-104", "keep_on_rolling.mid", "pop rock"),
    ("midi-snowrun-120", "midnight_snow_run.mid", "light rock (31 tempi)"),
    ("midi-giant-160", "mighty_giant_run.mid", "up-tempo rock"),
    ("midi-ttsong-080", "ttsong_iv_imuh3.mid", "slow pop"),
    ("midi-train-090", "train_filled_with_cash.mid", "funk"),
    ("midi-runlife-170", "run_for_your_life.mid", "fast rock"),
]


def read_wav(path):
    """Float mono samples and the rate of a PCM (16/24/32-bit) or float WAV."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path}: not a WAV file")
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if tag == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
            if fmt[0] == 0xFFFE:  # extensible: the sub-format's first two bytes
                fmt = (struct.unpack("<H", body[24:26])[0],) + fmt[1:]
        elif tag == b"data":
            samples = body
        pos += 8 + size + (size & 1)
    if fmt is None or samples is None:
        raise ValueError(f"{path}: no fmt or data chunk")
    kind, channels, rate, _, _, bits = fmt
    if kind == 3 and bits == 32:
        x = np.frombuffer(samples, dtype="<f4").astype(np.float64)
    elif kind == 1 and bits == 16:
        x = np.frombuffer(samples[: len(samples) // 2 * 2], dtype="<i2") / 32768.0
    elif kind == 1 and bits == 24:
        b = np.frombuffer(samples[: len(samples) // 3 * 3], dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        x = ((b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8) / 8388608.0
    elif kind == 1 and bits == 32:
        x = np.frombuffer(samples, dtype="<i4") / 2147483648.0
    else:
        raise ValueError(f"{path}: unsupported WAV format {kind}/{bits} bits")
    x = x[: len(x) // channels * channels].reshape(-1, channels).mean(axis=1)
    return x, rate


def write_wav(path, x, rate):
    """Mono 16-bit PCM, written to a temporary name and renamed (atomic)."""
    pcm = (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    header += b"data" + struct.pack("<I", len(pcm))
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(header + pcm)
    os.replace(tmp, path)


def write_text(path, text):
    tmp = path + ".part"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def sounding_span(x, rate):
    """First and last time the music sounds: 10 ms RMS within 40 dB of the piece's loud level."""
    hop = rate // 100
    frames = len(x) // hop
    rms = np.sqrt(np.mean(x[: frames * hop].reshape(frames, hop) ** 2, axis=1) + 1e-20)
    loud = np.percentile(rms, 95)
    on = np.nonzero(rms > loud * 0.01)[0]
    if len(on) == 0:
        raise ValueError("the render is silent")
    return on[0] * hop / rate, (on[-1] + 1) * hop / rate


def finish(directory, name, source, genre, bpm, rendered, beats, normalise=True):
    x, rate = read_wav(rendered)
    if rate != RATE:
        raise ValueError(f"{name}: rendered at {rate} Hz, expected {RATE}")
    start, end = sounding_span(x, rate)
    truth = [b for b in beats if start - 0.07 <= b <= end]
    peak = np.max(np.abs(x))
    if normalise and peak > 0:
        x = x * (0.5 / peak)  # about -6 dBFS, like the other corpora
    write_wav(os.path.join(directory, name + ".wav"), x, rate)
    write_text(os.path.join(directory, name + ".beats.txt"), "".join(f"{b:.6f}\n" for b in truth))
    return f"{name}\t{source}\t{genre}\t{bpm}\t{len(truth)}\t{len(x) / rate:.1f}\n"


def steady_beats(bpm, seconds):
    return [i * 60.0 / bpm for i in range(int(seconds * bpm / 60) + 2)]


def render_lmms(directory, name, project, genre, work):
    path = os.path.normpath(os.path.join(LMMS_DEMOS, project))
    data = open(path, "rb").read()
    text = (zlib.decompress(data[4:]) if path.endswith("z") else data).decode("utf-8", "replace")
    head = re.search(r"<head[^>]*>", text).group(0)
    bpm = float(re.search(r'bpm="([0-9.]+)"', head).group(1))
    if "<bpm " in text:
        raise ValueError(f"{project}: tempo automation (not handled)")
    out = os.path.join(work, name + ".wav")
    subprocess.run(["lmms", "--allowroot", "render", path, "-f", "wav", "-s", str(RATE), "-o", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    seconds = len(read_wav(out)[0]) / RATE
    return finish(directory, name, f"lmms:{project}", genre, bpm, out, steady_beats(bpm, seconds))


def render_hydrogen(directory, name, song, kit, bpm, genre, work):
    text = open(os.path.join(H2_SONGS, song), encoding="utf-8").read()
    sizes = set(re.findall(r"<size>(\d+)</size>", text))
    if sizes != {"192"}:
        raise ValueError(f"{song}: patterns other than one 4/4 bar ({sizes})")
    if "<newBPM>" in text:
        raise ValueError(f"{song}: tempo markers (not handled)")
    own = float(re.search(r"<bpm>([0-9.]+)</bpm>", text).group(1))
    bpm = bpm or own
    text = re.sub(r"<bpm>[0-9.]+</bpm>", f"<bpm>{bpm}</bpm>", text, count=1)
    copy = os.path.join(work, name + ".h2song")
    write_text(copy, text)
    out = os.path.join(work, name + ".wav")
    command = ["h2cli", "-s", copy, "-o", out, "-r", str(RATE), "-b", "16"]
    if kit:
        command += ["-k", kit]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    seconds = len(read_wav(out)[0]) / RATE
    source = f"hydrogen:{song}" + (f" kit {kit}" if kit else "") + (f" at {bpm:g} BPM" if bpm != own else "")
    return finish(directory, name, source, genre, bpm, out, steady_beats(bpm, seconds))


def midi_quarter_notes(path):
    """Times of every quarter note through the file's tempo map, and the first tempo (BPM)."""
    data = open(path, "rb").read()
    if data[:4] != b"MThd":
        raise ValueError(f"{path}: not a MIDI file")
    ntracks, division = struct.unpack(">HH", data[10:14])
    if division & 0x8000:
        raise ValueError(f"{path}: SMPTE time division (not handled)")
    tempos, end_tick, pos = [], 0, 14
    for _ in range(ntracks):
        size = struct.unpack(">I", data[pos + 4:pos + 8])[0]
        track, pos = data[pos + 8:pos + 8 + size], pos + 8 + size
        i, tick, status = 0, 0, 0
        while i < len(track):
            delta = 0
            while True:
                b = track[i]; i += 1
                delta = (delta << 7) | (b & 0x7F)
                if b < 0x80:
                    break
            tick += delta
            if track[i] >= 0x80:
                status = track[i]; i += 1
            if status == 0xFF:
                kind = track[i]; i += 1
                length = 0
                while True:
                    b = track[i]; i += 1
                    length = (length << 7) | (b & 0x7F)
                    if b < 0x80:
                        break
                body = track[i:i + length]; i += length
                if kind == 0x51:
                    tempos.append((tick, int.from_bytes(body, "big")))
                elif kind == 0x58 and body[1] != 2:
                    raise ValueError(f"{path}: a time signature over {2 ** body[1]} (beats are not quarter notes)")
            elif status in (0xF0, 0xF7):
                length = 0
                while True:
                    b = track[i]; i += 1
                    length = (length << 7) | (b & 0x7F)
                    if b < 0x80:
                        break
                i += length
            else:
                i += 1 if (status & 0xF0) in (0xC0, 0xD0) else 2
        end_tick = max(end_tick, tick)
    tempos = sorted(tempos) or [(0, 500000)]
    if tempos[0][0] != 0:
        tempos.insert(0, (0, 500000))
    beats, time, last_tick, tempo, k = [], 0.0, 0, tempos[0][1], 0
    for beat_tick in range(0, end_tick + division, division):
        while k < len(tempos) and tempos[k][0] <= beat_tick:
            time += (tempos[k][0] - last_tick) * tempo / 1e6 / division
            last_tick, tempo = tempos[k][0], tempos[k][1]
            k += 1
        beats.append(time + (beat_tick - last_tick) * tempo / 1e6 / division)
    return beats, 60e6 / tempos[0][1], len(set(t for _, t in tempos))


def render_midi(directory, name, midi, genre, work):
    path = os.path.join(OPENMSX, midi)
    beats, bpm, tempo_count = midi_quarter_notes(path)
    out = os.path.join(work, name + ".wav")
    subprocess.run(["fluidsynth", "-ni", "-g", "0.5", "-r", str(RATE), "-F", out, SOUNDFONT, path],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    label = f"{bpm:.0f}" + (f" ({tempo_count} tempi)" if tempo_count > 1 else "")
    return finish(directory, name, f"midi:openmsx/{midi}", genre, label, out, beats)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = os.path.abspath(sys.argv[1])
    only = None
    if "--only" in sys.argv:
        only = set(sys.argv[sys.argv.index("--only") + 1].split(","))
    os.makedirs(directory, exist_ok=True)
    jobs = [(n, render_lmms, (n, p, g)) for n, p, g in LMMS]
    jobs += [(n, render_hydrogen, (n, s, k, b, g)) for n, s, k, b, g in HYDROGEN]
    jobs += [(n, render_midi, (n, m, g)) for n, m, g in MIDI]
    failed = 0
    for name, render, args in jobs:
        if only and name not in only:
            continue
        info = os.path.join(directory, name + ".info.tsv")
        if os.path.exists(info) and os.path.exists(os.path.join(directory, name + ".wav")):
            continue
        print(f"rendering {name}", flush=True)
        work = tempfile.mkdtemp(prefix="entrain-real-")
        try:
            write_text(info, render(directory, *args, work))
        except (subprocess.SubprocessError, OSError, ValueError) as error:
            print(f"real-corpus: {name}: {error}", file=sys.stderr)
            failed += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    # One line a piece built (runs side by side each write their own pieces' lines).
    lines = [open(os.path.join(directory, n + ".info.tsv")).read() for n, _, _ in jobs
             if os.path.exists(os.path.join(directory, n + ".info.tsv"))]
    write_text(os.path.join(directory, "MANIFEST.tsv"), "name\tsource\tgenre\tbpm\tbeats\tseconds\n" + "".join(lines))
    print(f"{len(lines)} pieces in {directory}" + (f", {failed} failed" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
