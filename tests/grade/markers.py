#!/usr/bin/python3
"""markers.py SRC STAGE [DIR...] - solution text a grading of STAGE must not see, and where it leaked.

The secret stages: every stage but those STAGE builds on (its chain of
bases, code/tools/stage-chain.sh, without STAGE itself): for stage 3,
stages 2, 3 and up.  The markers: each line (stripped, at least 12
characters) inside a /* BEGIN EXERCISE */ ... /* END EXERCISE */ fence of
SRC/solutions/stageK (K secret) that no tracked file outside those
solutions and their mistakes' patches holds: text only an answer has.  Without DIRs, prints
them.  With DIRs, prints "LEAK FILE: LINE" for each file under them (any
size; binary files too) holding a marker, and exits 1 if there is one.
"""
import os
import re
import subprocess
import sys

src, stage = sys.argv[1], sys.argv[2]
chain = subprocess.run([os.path.join(src, "code/tools/stage-chain.sh"), stage], cwd=src,
                       capture_output=True, text=True, check=True).stdout.split()
bases = {int(k) for k in chain[:-1]}
secret_dir = re.compile(r"^(solutions/stage(\d+)/|tests/stage(\d+)/mistakes/)")
files = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
lines, public = set(), []
for f in files:
    if not f:
        continue
    m = secret_dir.match(f)
    k = int(m.group(2) or m.group(3)) if m else 0
    try:
        text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    if m and k not in bases and f.startswith("solutions/") and f.endswith(".c"):
        inside = False
        for l in text.split("\n"):
            if "BEGIN EXERCISE" in l:
                inside = True
            elif "END EXERCISE" in l:
                inside = False
            elif inside and len(l.strip()) >= 12 and not l.strip().startswith("/* STUB"):
                lines.add(l.strip())
    elif not (m and k not in bases):
        public.append(text)
everything = "\n".join(public)
markers = sorted(l for l in lines if l not in everything)
if len(sys.argv) == 3:
    print("\n".join(markers))
    sys.exit(0)
leaks = 0
for d in sys.argv[3:]:
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            data = open(p, "rb").read().decode("utf-8", errors="replace")
            for mk in markers:
                if mk in data:
                    print("LEAK %s: %s" % (p, mk))
                    leaks += 1
                    break
sys.exit(1 if leaks else 0)
