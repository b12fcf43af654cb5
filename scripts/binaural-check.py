#!/usr/bin/env python3
"""Checks a stereo WAV holds a binaural pair: each ear's strongest tone between 150 and 220 Hz,
the two about a beat apart (default 10 Hz), and well above silence. For make deb-test, which
plays theta-meditation (carrier 180 Hz, beat 10 Hz in its first stage) in a Debian root.

usage: binaural-check.py FILE START SECONDS [BEAT]   (analyses SECONDS from START)
Reads 16-bit PCM and 32-bit float WAV; standard library only (no numpy on a bare system)."""
import math
import struct
import sys


def read_wav(path):
    data = open(path, "rb").read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        sys.exit(f"{path}: not a WAV file")
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if tag == b"fmt ":
            code, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if code == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the real code starts the sub-format
                code = struct.unpack("<H", body[24:26])[0]
            fmt = (code, channels, rate, bits)
        elif tag == b"data":
            samples = body
        pos += 8 + size + (size & 1)
    if fmt is None or samples is None:
        sys.exit(f"{path}: no fmt or data chunk")
    code, channels, rate, bits = fmt
    if channels != 2:
        sys.exit(f"{path}: {channels} channels, expected 2")
    if code == 1 and bits == 16:
        values = [v / 32768 for v in struct.unpack(f"<{len(samples) // 2}h", samples)]
    elif code == 3 and bits == 32:
        values = list(struct.unpack(f"<{len(samples) // 4}f", samples))
    else:
        sys.exit(f"{path}: format {code} at {bits} bits is not read here")
    return rate, values[0::2], values[1::2]


def power(signal, rate, frequency):
    """Goertzel: the signal's power at one frequency."""
    coefficient = 2 * math.cos(2 * math.pi * frequency / rate)
    s1 = s2 = 0.0
    for x in signal:
        s1, s2 = x + coefficient * s1 - s2, s1
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2


def main():
    path, start, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    beat = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    rate, left, right = read_wav(path)
    first, count = int(start * rate), int(seconds * rate)
    if first + count > len(left):
        sys.exit(f"{path}: {len(left) / rate:.2f} s long, wanted {start + seconds:.2f} s")
    peaks, levels = [], []
    for channel in (left[first:first + count], right[first:first + count]):
        rms = math.sqrt(sum(x * x for x in channel) / count)
        levels.append(20 * math.log10(max(rms, 1e-12)))
        candidates = [150 + 0.5 * i for i in range(141)]
        peaks.append(max(candidates, key=lambda f: power(channel, rate, f)))
    split = abs(peaks[1] - peaks[0])
    line = (f"{path}: left {peaks[0]:.1f} Hz at {levels[0]:.1f} dBFS, right {peaks[1]:.1f} Hz "
            f"at {levels[1]:.1f} dBFS, {split:.1f} Hz apart")
    # Half a hertz of scan step and the window's own resolution (1/seconds) bound the error.
    if min(levels) < -50 or abs(split - beat) > 0.5 + 1 / seconds:
        sys.exit(f"FAILED: {line}; expected a {beat:g} Hz binaural pair above -50 dBFS")
    print(f"deb-test: {line}")


main()
