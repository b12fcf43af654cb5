#!/usr/bin/env python3
"""A Link peer for entrain's tests (aalink, Ableton Link for Python).

Joins the session at --tempo, then every 20 ms prints one line on stdout:
    grid <CLOCK_MONOTONIC µs> <CLOCK_MONOTONIC_RAW µs> <beat> <tempo> <peers>
with the beat read between two readings of each clock (their midpoints), so a test can place the
session's beats on the clock its JACK library uses (jackd2: the raw one; PipeWire: the other). Lines on stdin change it:
    tempo <bpm>      set the session tempo (as a user of this peer would)
    quit             leave
"""
import argparse
import asyncio
import sys
import time

from aalink import Link


def clocks_us():
    return (time.clock_gettime_ns(time.CLOCK_MONOTONIC) / 1000.0, time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW) / 1000.0)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tempo", type=float, default=120.0)
    parser.add_argument("--quantum", type=float, default=4.0)
    args = parser.parse_args()
    link = Link(args.tempo, asyncio.get_running_loop())
    link.quantum = args.quantum
    link.enabled = True
    commands = asyncio.Queue()
    asyncio.get_running_loop().add_reader(sys.stdin, lambda: commands.put_nowait(sys.stdin.readline()))
    print("ready", flush=True)
    while True:
        while not commands.empty():
            words = commands.get_nowait().split()
            if not words or words[0] == "quit":
                link.enabled = False
                return
            if words[0] == "tempo":
                link.tempo = float(words[1])
        before = clocks_us()
        beat = link.beat
        after = clocks_us()
        mono, raw = (before[0] + after[0]) / 2, (before[1] + after[1]) / 2
        print(f"grid {mono:.1f} {raw:.1f} {beat:.6f} {link.tempo:.4f} {link.num_peers}", flush=True)
        await asyncio.sleep(0.02)


if __name__ == "__main__":
    asyncio.run(main())
