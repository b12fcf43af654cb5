#!/usr/bin/env python3
"""`make soak`'s load: random valid changes over every family at RATE OSC messages per second
(and a heart stream into /hrv/rr)
to a running entrain for SECONDS, and a /status poll every 2 s written as one line each
(unix time, server up/gone, xruns, elapsed seconds) to STATUS_FILE."""
import math, random, socket, struct, sys, time

port, rate, seconds, status_file = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]

def pad(b):
    return b + b"\0" * (4 - len(b) % 4)

def message(address, *floats):
    return pad(address.encode()) + pad(("," + "f" * len(floats)).encode()) + b"".join(struct.pack(">f", f) for f in floats)

def strings(data):
    out, i = [], 0
    while i < len(data):
        j = data.index(b"\0", i)
        out.append(data[i:j]); i = (j // 4 + 1) * 4
        if len(out) == 2: return out, i
    return out, i

def parse_status(data):
    (address, tags), i = strings(data)
    values = []
    for t in tags[1:].decode():
        if t == "s":
            j = data.index(b"\0", i); values.append(data[i:j].decode()); i = (j // 4 + 1) * 4
        elif t == "i": values.append(struct.unpack(">i", data[i:i + 4])[0]); i += 4
        elif t == "f": values.append(struct.unpack(">f", data[i:i + 4])[0]); i += 4
        elif t == "h": values.append(struct.unpack(">q", data[i:i + 8])[0]); i += 8
    return values

# (address, low, high): ranges inside every parameter's limits
changes = [("/entrain/carrier", 150, 400), ("/entrain/beat", 2, 14), ("/entrain/volume", 0.2, 0.6),
           ("/entrain/noise/level", 0, 0.3), ("/led/manual", 0, 1), ("/led/gain/1", 0.2, 1),
           ("/haptic/intensity", 0, 1), ("/haptic/sharpness", 0, 1), ("/ambient/reverbLevel", 0.2, 1.5),
           ("/ambient/masterVolume", 0.3, 0.9)]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setblocking(False)
target = ("127.0.0.1", port)
start = time.time(); sent = 0; next_status = start; next_heartbeat = start
# The HRV family is fed like a chest strap: one RR interval per beat, breathing-modulated.
with open(status_file, "w") as out:
    while time.time() - start < seconds:
        due = int((time.time() - start) * rate)
        while sent < due:
            address, low, high = random.choice(changes)
            sock.sendto(message(address, random.uniform(low, high)), target); sent += 1
        if time.time() >= next_heartbeat:
            rr = 850 + 60 * math.sin(2 * math.pi * 0.1 * (time.time() - start)) + random.uniform(-8, 8)
            next_heartbeat += rr / 1000
            sock.sendto(message("/hrv/rr", rr), target); sent += 1
        if time.time() >= next_status:
            next_status += 2
            sock.sendto(message("/status"), target)
        try:
            while True:
                data = sock.recv(65536)
                if data.startswith(b"/status\0"):
                    v = parse_status(data)
                    out.write(f"{time.time():.1f} {v[10] if len(v) > 10 else '?'} {v[5]} {v[9]:.1f}\n"); out.flush()
        except BlockingIOError:
            pass
        time.sleep(0.001)
print(f"load: sent {sent} messages in {time.time() - start:.0f} s")
