#!/usr/bin/env python3
"""A class answers at once: how long until the stage shows every answer.

Starts `launchlab --fresh --course ID --presentation --ask --ask-bind 127.0.0.1` (offscreen unless DISPLAY is set),
reads the poll's address from the line it prints ("poll: http://ADDRESS:PORT/CODE"), opens CLIENTS connections,
then releases them together: each posts one answer from a device of its own, as a student's page does. The window
prints "poll: N answers" from the signal that sets the stage's count, so the time from the release to the line
"poll: CLIENTS*k answers" is the time until the stage shows them. ROUNDS rounds (new devices each round) in the same
poll; prints each round and the median, and exits 1 when a client was refused or the count never came.

Usage: poll_class.py LAUNCHLAB [--course ID] [--clients 60] [--rounds 5]
"""
import argparse
import os
import queue
import socket
import statistics
import subprocess
import sys
import threading
import time

WAIT_S = 60  # the window's start, and each round's count; every socket wait is bounded too


def read_lines(stream, lines):
    for line in stream:
        lines.put((time.monotonic(), line.rstrip("\n")))


def wait_for(lines, exact_or_prefix, seconds, exact=False):
    """The (time, line) of the first stdout line that matches within `seconds`, else None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            at, line = lines.get(timeout=max(0.05, end - time.monotonic()))
        except queue.Empty:
            return None
        if line == exact_or_prefix if exact else line.startswith(exact_or_prefix):
            return at, line
    return None


def answer_bytes(host, code, device):
    body = '{"t":"%032x","a":5}' % device
    return (f"POST /{code}/answer HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()


def client(host, port, payload, gate, statuses, index):
    try:
        with socket.create_connection((host, port), timeout=10) as s:
            gate.wait(timeout=WAIT_S)  # every client connected before any sends
            s.sendall(payload)
            reply = s.recv(64)
            statuses[index] = int(reply[9:12]) if reply.startswith(b"HTTP/1.1 ") else 0
    except (OSError, threading.BrokenBarrierError, ValueError):
        statuses[index] = -1


def one_round(host, port, code, clients, first_device, lines, expect):
    statuses = [None] * clients
    gate = threading.Barrier(clients + 1)
    threads = [threading.Thread(target=client, args=(host, port, answer_bytes(host, code, first_device + i), gate,
                                                     statuses, i)) for i in range(clients)]
    for t in threads:
        t.start()
    gate.wait(timeout=WAIT_S)
    released = time.monotonic()
    seen = wait_for(lines, f"poll: {expect} answers", WAIT_S, exact=True)
    for t in threads:
        t.join(timeout=WAIT_S)
    refused = [s for s in statuses if s != 204]
    if refused:
        print(f"FAIL: {len(refused)} of {clients} clients were not answered 204: {sorted(set(map(str, refused)))}",
              file=sys.stderr)
        return None
    if not seen:
        print(f"FAIL: the window never printed 'poll: {expect} answers'", file=sys.stderr)
        return None
    return seen[0] - released


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("launchlab")
    ap.add_argument("--course", default="es-coalescing")
    ap.add_argument("--clients", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    env = dict(os.environ, QT_LOGGING_RULES="qt.qpa.*=false")
    if not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    app = subprocess.Popen([a.launchlab, "--fresh", "--course", a.course, "--presentation", "--ask", "--ask-bind",
                            "127.0.0.1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=read_lines, args=(app.stdout, lines), daemon=True).start()
    try:
        started = wait_for(lines, "poll: http://", WAIT_S)
        if not started:
            print("FAIL: launchlab printed no 'poll: http://ADDRESS:PORT/CODE' line", file=sys.stderr)
            return 1
        url = started[1].split(" ", 1)[1]
        hostport, code = url[len("http://"):].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        times = []
        for r in range(a.rounds):
            t = one_round(host, int(port), code, a.clients, 1000 * (r + 1), lines, a.clients * (r + 1))
            if t is None:
                return 1
            times.append(t)
            print(f"round {r + 1}: {a.clients} answers from {a.clients} clients on the stage in {t:.3f} s")
        print(f"{a.course}: {a.clients} clients answering at once reach the stage in {statistics.median(times):.3f} s "
              f"(median of {len(times)} rounds, slowest {max(times):.3f} s)")
        return 0
    finally:
        app.terminate()
        try:
            app.wait(timeout=15)
        except subprocess.TimeoutExpired:
            app.kill()


if __name__ == "__main__":
    sys.exit(main())
