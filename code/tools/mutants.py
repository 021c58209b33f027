#!/usr/bin/env python3
"""mutants.py - run a stage's checks on each one-line mutant of its code (make mutants).

    mutants.py --stage N --out DIR [--survivors FILE] [--sample FILE] [--jobs J]
               [--timeout S] [--scenarios TSV] --files "F..." --exercise-files "F..."
               SUITE...

Each mutant (code/tools/mutate.py makes them: of the --files whole, of the
--exercise-files between their exercise markers) is built in a directory of
its own under DIR by tests/lib/mistake-build.sh, from the reference's other
objects, then checked by the stage's suites (the SUITE binaries, in the
order given, the cheap ones first) and scenario table, one after another,
stopping at the first that fails: the mutant is killed.  A mutant whose
checks all pass survived; one that does not build did not compile (it is
compiled as a student's file is, warnings allowed).  J mutants run at once
(default: one per CPU), each with S seconds of wall time (default 300) for
its build and checks: past them its whole process group is killed and the
mutant counts as killed by the time limit, since a check that never ends is
a check that did not pass.

--survivors names the survivors this tree is known to have, one a line,
KEY<TAB>why it survives.  Every survivor not in it is printed with its
diff, as is every line of it that no longer survives (unless its reason
starts with "flaky": killed on some runs only); either makes the exit
status 1.  --sample runs only the mutants whose keys it lists (one a
line), and every one of them must be killed (make check's sample).

The build environment comes from the Makefile, as for the mistakes:
CC, STAGE_CFLAGS, STAGE_DIR, KERNEL_OBJ, SHELL_OBJ, TESTLIB_OBJ,
LINK_FLAGS, CHECK_CFLAGS, CHECK_LIBS.
"""
import argparse
import difflib
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402


def read_keys(path, with_reason):
    """KEY -> reason (or line number) of a survivors or sample file; # lines and blank lines skipped."""
    out = {}
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition("\t")
            if with_reason and not reason.strip():
                sys.exit("%s:%d:1: survivor %s has no reason (KEY<TAB>why)" % (path, no, key))
            out[key] = reason.strip() if with_reason else no
    return out


def all_mutants(files, exercise_files):
    out = []
    for path, only in [(f, False) for f in files] + [(f, True) for f in exercise_files]:
        with open(path) as f:
            text = f.read()
        for key, no, what, change in mutate.mutants(path, text, only):
            new = mutate.apply(text, change)
            diff = "".join(difflib.unified_diff(text.splitlines(True), new.splitlines(True), path, path, n=2))
            out.append({"key": key, "path": path, "line": no, "what": what, "diff": diff})
    return out


def failed_test(resdir):
    """SUITE: TEST of the first failed row of a runtests.sh results directory."""
    try:
        with open(os.path.join(resdir, "results.tsv")) as f:
            for row in f:
                c = row.rstrip("\n").split("\t")
                if len(c) > 3 and c[3] == "fail":
                    return "%s: %s" % (c[1], c[2])
    except OSError:
        pass
    return "(no result rows)"


def checks(m, d, args, env):
    """The mutant's build and checks, as one shell script (one process group to kill on a timeout)."""
    steps = []
    suites = " ".join(os.path.basename(s) for s in args.suites)
    steps.append('tests/lib/mistake-build.sh "%s" "%s" "%s" >"%s.build" 2>&1 || exit 10'
                 % (m["patch"], suites, d, d))
    run = 'KSIM="%s/ksim --sched nonpreemptive" KSIM_DIR=%s KTEST_JOBS=1 KTEST_HANG_FILE=%s/hang ' % (d, d, d)
    steps.append(": >%s/hang" % d)
    for i, s in enumerate(args.suites):
        name = os.path.basename(s)
        steps.append('%s tests/lib/runtests.sh %s --results %s/r%d %s/%s >%s/r%d.log 2>&1 || exit %d'
                     % (run, name, d, i, d, name, d, i, 20 + i))
    if args.scenarios:
        i = len(args.suites)
        steps.append('%s tests/lib/runtests.sh scenarios --results %s/r%d --scenarios %s >%s/r%d.log 2>&1 || exit %d'
                     % (run, d, i, args.scenarios, d, i, 20 + i))
    return "\n".join(steps) + "\nexit 0\n"


def run_one(m, args, env):
    d = os.path.join(args.out, "m%03d" % m["n"])
    shutil.rmtree(d, ignore_errors=True)
    t0 = time.monotonic()
    p = subprocess.Popen(["bash", "-c", checks(m, d, args, env)], env=env, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        rc = p.wait(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        rc = None
    m["seconds"] = time.monotonic() - t0
    m["dir"] = d
    if rc is None:
        m["outcome"], m["by"] = "killed", "the time limit (%d s)" % args.timeout
    elif rc == 10:
        m["outcome"], m["by"] = "did not compile", ""
    elif rc == 0:
        m["outcome"], m["by"] = "survived", ""
    elif rc >= 20:
        i = rc - 20
        m["outcome"], m["by"] = "killed", failed_test(os.path.join(d, "r%d" % i))
    else:
        m["outcome"], m["by"] = "did not compile", "(the build script exited %d)" % rc
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stage", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--files", default="")
    ap.add_argument("--exercise-files", default="")
    ap.add_argument("--survivors")
    ap.add_argument("--sample")
    ap.add_argument("--scenarios")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("suites", nargs="+")
    args = ap.parse_args()
    name = ("check-mutants-sample" if args.sample else "mutants") + " STAGE=%s" % args.stage

    ms = all_mutants(args.files.split(), args.exercise_files.split())
    if args.sample:
        want = read_keys(args.sample, False)
        missing = [k for k in want if k not in {m["key"] for m in ms}]
        for k in missing:
            print("FAIL %s: no such mutant (the code changed? pick another from 'make mutants-list')" % k)
        ms = [m for m in ms if m["key"] in want]
        if missing:
            print("%s: 0 passed, %d failed" % (name, len(want)))
            return 1
    os.makedirs(os.path.join(args.out, "patches"), exist_ok=True)
    for n, m in enumerate(ms):
        m["n"] = n
        m["patch"] = os.path.join(args.out, "patches", "m%03d.patch" % n)
        with open(m["patch"], "w") as f:
            f.write(m["diff"])
    env = dict(os.environ)
    # A mutant is compiled as a student's file is: a warning is not a failure to build.
    env["STAGE_CFLAGS"] = " ".join(w for w in env.get("STAGE_CFLAGS", "").split() if w != "-Werror")
    env["MISTAKE_TESTS"] = "tests/stage%s" % args.stage
    env.pop("MAKEFLAGS", None)
    print("%s: %d mutants, %d at a time, at most %d s each (build and checks in %s/mNNN)"
          % (name, len(ms), args.jobs, args.timeout, args.out), flush=True)
    t0 = time.monotonic()
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for m in ex.map(lambda m: run_one(m, args, env), ms):
            done += 1
            print("  [%d/%d] %-15s %s:%d %s%s, %.0f s" % (done, len(ms), m["outcome"], m["path"], m["line"],
                                                     m["what"], " (by %s)" % m["by"] if m["by"] else "",
                                                     m["seconds"]), flush=True)
    return report(name, ms, args, time.monotonic() - t0)


def report(name, ms, args, seconds):
    status = 0
    killed = [m for m in ms if m["outcome"] == "killed"]
    timeouts = [m for m in killed if m["by"].startswith("the time limit")]
    survived = [m for m in ms if m["outcome"] == "survived"]
    nocompile = [m for m in ms if m["outcome"] == "did not compile"]
    if args.sample:
        for m in ms:
            ok = m["outcome"] == "killed"
            print("%s %s: %s%s" % ("ok" if ok else "FAIL", m["key"], m["outcome"],
                                   " by " + m["by"] if m["by"] else ""))
            if not ok:
                sys.stdout.write(m["diff"])
        print("%s: %d passed, %d failed" % (name, len(killed), len(ms) - len(killed)))
        return 0 if len(killed) == len(ms) else 1
    known = read_keys(args.survivors, True) if args.survivors and os.path.exists(args.survivors) else {}
    for m in survived:
        if m["key"] in known:
            print("survived (known: %s): %s" % (known[m["key"]], m["key"]))
        else:
            status = 1
            print("SURVIVED, not in %s: %s\n%s" % (args.survivors, m["key"], m["diff"]), end="")
    # "flaky": a race that free threads catch on some runs; either outcome is expected.
    gone = [k for k in known if k not in {m["key"] for m in survived} and not known[k].startswith("flaky")]
    for k in gone:
        status = 1
        print("listed in %s but no longer survives (killed, or no longer made): %s" % (args.survivors, k))
    for m in nocompile:
        print("did not compile: %s (%s.build)" % (m["key"], m["dir"]))
    scored = len(killed) + len(survived)
    print("%s: %d mutants: %d killed (%d by the time limit), %d survived, %d did not compile; "
          "kill ratio %d/%d = %.0f%% (%.0f s)"
          % (name, len(ms), len(killed), len(timeouts), len(survived), len(nocompile), len(killed), scored,
             100.0 * len(killed) / scored if scored else 0.0, seconds))
    return status


if __name__ == "__main__":
    sys.exit(main())
