"""Real traceback pastes for bench/serve_bench.sh: runs python3 programs that fail
inside the standard library (so a scan of that stdlib has the raise), and puts
each traceback at the end of about 8 KB of log lines, as a user pastes a log.
Writes them NUL-separated to stdout.

usage: python3 bench/serve_pastes.py [--kb 8] > pastes.bin
"""
import random
import subprocess
import sys

PROGRAMS = [
    "import json; json.loads('{\"a\": 1,')",
    "import ipaddress; ipaddress.ip_address('999.1.1.1')",
    "import fractions; fractions.Fraction('one half')",
    "import shlex; shlex.split('say \"hello')",
    "import textwrap; textwrap.TextWrapper(width=0).wrap('some text')",
    "import urllib.parse; urllib.parse.urlsplit('http://[::1/index.html')",
    "import configparser; configparser.ConfigParser().read_string('key = value')",
    "import zipfile, io; zipfile.ZipFile(io.BytesIO(b'not a zip'))",
    "import tarfile, io; tarfile.open(fileobj=io.BytesIO(b'not a tar'))",
    "import statistics; statistics.mean([])",
    "import uuid; uuid.UUID('not-a-uuid')",
    "import calendar; calendar.month_name[13]; calendar.monthrange(2024, 13)",
]


def noise(rng):
    kind = rng.randrange(3)
    if kind == 0:
        return "[2025-03-10 14:17:%02d TP%d] Decode batch. #running-req: %d, #token: %d, gen throughput (token/s): %d.%02d" % (
            rng.randrange(60), rng.randrange(8), rng.randrange(64), rng.randrange(65536), rng.randrange(4000), rng.randrange(100))
    if kind == 1:
        return 'INFO:     10.0.%d.%d:%d - "POST /v1/chat/completions HTTP/1.1" 200 OK' % (
            rng.randrange(255), rng.randrange(255), 1024 + rng.randrange(60000))
    return "2025-03-10T14:17:%02d.%03dZ INFO worker %d: request %d handled in %d ms" % (
        rng.randrange(60), rng.randrange(1000), rng.randrange(16), rng.randrange(10**6), rng.randrange(500))


def main():
    kb = 8
    if "--kb" in sys.argv:
        kb = int(sys.argv[sys.argv.index("--kb") + 1])
    rng = random.Random(12345)
    out = sys.stdout.buffer
    made = 0
    for program in PROGRAMS:
        run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
        tb = run.stderr
        if "Traceback (most recent call last):" not in tb:
            continue
        lines = []
        while sum(len(l) + 1 for l in lines) + len(tb) < kb * 1024:
            lines.append(noise(rng))
        paste = ("\n".join(lines) + "\n" + tb)[-kb * 1024:]
        paste = paste[paste.index("\n") + 1:]  # start at a whole line
        out.write(paste.encode() + b"\0")
        made += 1
    print("serve_pastes: %d pastes of about %d KB" % (made, kb), file=sys.stderr)


if __name__ == "__main__":
    main()
