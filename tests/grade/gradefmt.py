#!/usr/bin/python3
"""gradefmt - the trusted side's reading of one grading run, and its four formats.

    gradefmt.py --points TSV --exercises TSV --out DIR [--note FILE] STAGE=DIR...

Each STAGE=DIR is what tests/grade/grade.sh left for a stage.  What decides a
verdict comes from DIR/trusted/, which the submission's user cannot open: for
a Check suite, UNIT.key (this grading's random key, then its canaries' names)
and UNIT.verdicts, what reached the pipe grade.sh opened (ktest.c: a "pass"
line per test that passed, and Check's own counts, each with the key); for the
scenario table, trusted/scenarios.tsv/results.tsv, written by scenarios.sh run
on the trusted side.  DIR/work/UNIT/results.tsv, written by runtests.sh as the
submission's user, gives each failure's message and output, and Check's own
claims.  On the trusted side too: DIR/build.msg when the stage did not compile,
DIR/stop.msg when it ran out of time, DIR/units/UNIT.status with the unit's
exit status.

A test passes when its pass reached the pipe with the key and Check's own
results say it passed.  The tests a unit must report are those
tests/grade/points.tsv lists for it (the course's tree, not the run): a unit
whose results.tsv names another test, names one twice, lacks one, holds a
malformed line, or is missing, or that did not report Check's counts, fails
all its tests, and the reason says which.  The grading is void (every
exercise 0, and the reason in every format) when a canary passed, when the
pipe carried a line without the key, or when Check's counts or results.tsv
claim a pass that did not reach the pipe: only tampering does that.  Messages
and outputs are read only from regular files inside the unit's own directory,
at most OUTPUT_MAX bytes of each (the end), decoded as UTF-8 with invalid
bytes replaced.

Points belong to exercises (tests/grade/exercises.tsv): an exercise scores its
points when every test that names it in points.tsv passed, else zero.  Tests
that name no exercise ("-") score nothing either way; their failures are
reported apart.

Writes, in DIR: results.json (Gradescope), junit.xml (JUnit, Ant's schema:
tests/grade/junit.xsd), grade.tap (TAP 13 with YAML blocks), classroom.json (GitHub
Classroom's reporter), summary.txt (one line per failed exercise, and the
total); each written by Python's json, xml.etree and PyYAML, never by hand.
Prints one line a stage and the total.  Exit status 0, or 2 with
FILE:LINE:COL: what is wrong for a bad points or exercises file.
"""
import argparse
import json
import math
import os
import sys
import time
import xml.etree.ElementTree as ET
from functools import reduce

import yaml

OUTPUT_MAX = 2000       # bytes of one message or one output kept: its end
RESULTS_MAX = 1 << 20   # a unit's results.tsv longer than this is not read
EXERCISE_TEXT_MAX = 8000  # characters of one exercise's feedback
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
KINDS = ("check", "scenario")
VOID = "the results were tampered with, so this grading scores 0:"


def die(msg):
    print("gradefmt: " + msg, file=sys.stderr)
    sys.exit(2)


def read_table(path, ncols, what):
    """Rows of a tab-separated file, comments and blank lines left out; each row keeps its line number."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != ncols or not fields[0].isdigit():
                col = len("\t".join(fields[:ncols])) + 1 if len(fields) > ncols else len(line) + 1
                die("%s:%d:%d: want %s (%d tab-separated fields, found %d)" % (path, lineno, col, what, ncols, len(fields)))
            rows.append((lineno, fields))
    return rows


def load_course(points_path, exercises_path, stages):
    """The tests and the exercises of the stages graded, from the course's own files."""
    exercises = {}
    for lineno, (st, name, pts, vis) in read_table(exercises_path, 4, "STAGE EXERCISE POINTS VISIBILITY"):
        try:
            p = float(pts)
        except ValueError:
            p = -1
        if p < 0 or vis not in VISIBILITIES:
            die("%s:%d:1: points must be a number >= 0 and visibility one of %s" % (exercises_path, lineno, ", ".join(VISIBILITIES)))
        if int(st) in stages:
            exercises[(int(st), name)] = {"stage": int(st), "name": name, "points": p, "visibility": vis, "tests": []}
    tests = []
    for lineno, (st, tid, deps) in read_table(points_path, 3, "STAGE TEST EXERCISES"):
        if int(st) not in stages:
            continue
        if ":" not in tid:
            die("%s:%d:3: a test is SUITE:NAME" % (points_path, lineno))
        names = [] if deps == "-" else deps.split(",")
        for e in names:
            if (int(st), e) not in exercises:
                die("%s:%d:%d: exercise '%s' of stage %s is not in %s" % (points_path, lineno, len(st) + len(tid) + 3, e, st, exercises_path))
        t = {"stage": int(st), "id": tid, "unit": tid.split(":", 1)[0], "name": tid.split(":", 1)[1],
             "exercises": names, "passed": False, "where": "", "text": None}
        tests.append(t)
        for e in names:
            exercises[(int(st), e)]["tests"].append(t)
    return tests, exercises


def bounded_text(path, unit_dir, limit=OUTPUT_MAX):
    """The end of a file the unit wrote, if it is a regular file inside unit_dir; else why not."""
    if not path or path == "-":
        return ""
    real = os.path.realpath(path)
    if not real.startswith(os.path.realpath(unit_dir) + os.sep):
        return "[the suite named a file outside its results: %r; not read]" % path[:200]
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        return "[%s: %s]" % (os.path.basename(path)[:100], e.strerror)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not (st.st_mode & 0o170000 == 0o100000):
            return "[not a regular file; not read]"
        if st.st_size > limit:
            f.seek(st.st_size - limit)
        data = f.read(limit)
    text = data.decode("utf-8", errors="replace")
    if st.st_size > limit:
        text = "[... %d earlier bytes cut ...]" % (st.st_size - limit) + text[text.find("\n") + 1:] if "\n" in text else text
    return text


def read_claims(d, unit, expected, canaries):
    """What the unit's own side wrote in d/results.tsv (the messages, and Check's claims):
    {name: (passed, where, msg, out)} for the course's tests, {name: passed} for the canaries,
    and why it cannot be used, if it cannot."""
    path = os.path.join(d, "results.tsv")
    try:
        st = os.lstat(path)
    except OSError:
        return None, None, "left no results"
    if st.st_mode & 0o170000 != 0o100000 or st.st_size > RESULTS_MAX:
        return None, None, "'s results are not a regular file under %d bytes" % RESULTS_MAX
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", errors="replace").splitlines()
    seen, seen_canaries, died = {}, {}, None
    for i, line in enumerate(lines, 1):
        fld = line.split("\t")
        if len(fld) != 7 or fld[0] not in KINDS or fld[1] != unit or fld[3] not in ("pass", "fail"):
            return None, None, " printed a malformed or forged result line %d: %r" % (i, line[:120])
        name = fld[2]
        if name == "(suite)":
            died = (fld[5], fld[6])
            continue
        if name in canaries:
            seen_canaries[name] = fld[3] == "pass"
            continue
        if name not in expected:
            return None, None, " reported a test the course does not list for it: %r" % name[:120]
        if name in seen:
            return None, None, " reported test %s twice (a forged line?)" % name[:120]
        seen[name] = (fld[3] == "pass", fld[4][:200], fld[5], fld[6])
    if died:
        text = bounded_text(died[0], d) + "\n" + bounded_text(died[1], d)
        return None, None, " died before or outside its tests:\n%s" % text
    missing = [n for n in expected if n not in seen]
    if missing:
        return None, None, " reported %d of its %d tests (missing: %s): it exited early, or its results were cut" % (
            len(seen), len(expected), ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""))
    return seen, seen_canaries, None


def read_verdicts(stage_dir, unit):
    """What reached the trusted side's pipe (ktest.c): the passes and Check's counts, checked against
    the key; the canaries' names; and the lines that could only have been forged."""
    t = os.path.join(stage_dir, "trusted")
    try:
        with open(os.path.join(t, unit + ".key"), encoding="utf-8") as f:
            keylines = f.read().split("\n")
        with open(os.path.join(t, unit + ".verdicts"), "rb") as f:
            data = f.read(RESULTS_MAX)
    except OSError:
        return None
    key, canaries = keylines[0], [c for c in keylines[1:] if c]
    passes, summaries, forged = set(), [], []
    for line in data.decode("utf-8", errors="replace").splitlines():
        fld = line.split("\t")
        if len(fld) < 4 or not key or fld[0] != key or fld[2] != unit:
            forged.append("a line without this grading's key: %r" % line[:80])
        elif fld[1] == "pass" and len(fld) == 4:
            passes.add(fld[3])
        elif fld[1] == "summary" and len(fld) == 5 and fld[3].isdigit() and fld[4].isdigit():
            summaries.append((int(fld[3]), int(fld[4])))
        else:
            forged.append("a malformed line: %r" % line[:80])
    return {"canaries": canaries, "passes": passes, "summaries": summaries, "forged": forged}


def read_unit(stage_dir, unit, expected, tampered):
    """The outcomes of one unit, checked: {name: (passed, where, text)} and the reason it cannot be believed, if any.
    Evidence of tampering is added to tampered (it voids the grading)."""
    status = bounded_text(os.path.join(stage_dir, "units", unit + ".status"), stage_dir, 100).strip()
    if unit == "scenarios.tsv":
        # The table is judged on the trusted side (grade.sh): its rows are the verdicts.
        d = os.path.join(stage_dir, "trusted", unit)
        seen, _, why = read_claims(d, unit, expected, [])
        if why:
            return None, "%s%s (exit status %s)" % (unit, why, status or "unknown")
        return {n: (ok, where, "" if ok else table_text(msg, outf, d)) for n, (ok, where, msg, outf) in seen.items()}, None
    v = read_verdicts(stage_dir, unit)
    if v is None:
        return None, "%s has no verdicts on the trusted side: it was not run" % unit
    d = os.path.join(stage_dir, "work", unit)
    canaries = v["canaries"]
    claims, canary_claims, why = read_claims(d, unit, expected, canaries)
    for f in v["forged"]:
        tampered.append("%s: the verdict pipe carried %s" % (unit, f))
    for c in canaries:
        if c in v["passes"]:
            tampered.append("%s: the canary %s, a test that must fail, was reported passed" % (unit, c))
    unknown = v["passes"] - set(expected) - set(canaries)
    if unknown:
        tampered.append("%s: passes of tests it does not have: %s" % (unit, ", ".join(sorted(unknown))[:200]))
    passed = v["passes"] & (set(expected) | set(canaries))
    if len(v["summaries"]) > 1:
        tampered.append("%s: %d summaries of one run" % (unit, len(v["summaries"])))
    for run, failed in v["summaries"][:1]:
        if run - failed > len(passed):
            tampered.append("%s: Check's own counts say %d of %d tests passed; %d passes reached the grader" % (
                unit, run - failed, run, len(passed)))
    for name, (ok, _, _, _) in (claims or {}).items():
        if ok and name not in v["passes"]:
            tampered.append("%s: its results say %s passed; no pass reached the grader" % (unit, name))
    for name, ok in (canary_claims or {}).items():
        if ok:
            tampered.append("%s: its results say the canary %s passed" % (unit, name))
    if why:
        return None, "%s%s (exit status %s)" % (unit, why, status or "unknown")
    if not v["summaries"]:
        return None, "%s ended before it could report its counts (exit status %s)" % (unit, status or "unknown")
    want = len(expected) + len(canaries)
    if v["summaries"][0][0] != want:
        return None, "%s ran %d tests, not its %d" % (unit, v["summaries"][0][0], want)
    if status not in ("0", "1"):
        return None, "%s ended with exit status %s after reporting" % (unit, status or "unknown")
    out = {}
    for name, (ok, where, msg, outf) in claims.items():
        # A pass needs both: the pass on the pipe, and Check's (a teardown or an exit can fail it after).
        ok = ok and name in v["passes"]
        out[name] = (ok, where, "" if ok else table_text(msg, outf, d))
    return out, None


def table_text(msg, outf, d):
    """A failure's message and what the test printed, as its feedback."""
    m, o = bounded_text(msg, d), bounded_text(outf, d)
    return m + ("\n--- what it printed:\n" + o if o.strip() else "")


def grade_stage(n, stage_dir, tests, tampered):
    """Fill in the outcome of every test of stage n; evidence of tampering goes to tampered."""
    mine = [t for t in tests if t["stage"] == n]
    stage_reason = None
    for f, why in (("build.msg", ""), ("stop.msg", "")):
        p = os.path.join(stage_dir, f)
        if os.path.exists(p):
            stage_reason = bounded_text(p, stage_dir, 4 * OUTPUT_MAX)
    units = {}
    for t in mine:
        units.setdefault(t["unit"], []).append(t)
    for unit, ts in units.items():
        outcomes, reason = (None, stage_reason) if stage_reason else read_unit(stage_dir, unit, [t["name"] for t in ts], tampered)
        for t in ts:
            if outcomes is None:
                t["passed"], t["text"] = False, reason or "not run"
            else:
                t["passed"], t["where"], t["text"] = outcomes[t["name"]]


def exercise_results(exercises):
    """Each exercise: its score, and why it scored nothing."""
    res = []
    for e in exercises.values():
        failed = [t for t in e["tests"] if not t["passed"]]
        ok = bool(e["tests"]) and not failed
        lines = []
        if not e["tests"]:
            lines.append("No test names this exercise (tests/grade/points.tsv): it cannot be graded.")
        for t in failed:
            lines.append("FAILED %s%s:\n%s" % (t["id"], " (" + t["where"] + ")" if t["where"] and t["where"] != "-" else "",
                                               indent(t["text"])))
        text = "\n".join(lines)
        if len(text) > EXERCISE_TEXT_MAX:
            text = text[:EXERCISE_TEXT_MAX] + "\n[... more failures cut: make check-stage%d shows them all]" % e["stage"]
        if failed:
            text = "%d of its %d tests failed; the exercise scores its points only when all pass.\n%s" % (
                len(failed), len(e["tests"]), text)
        res.append(dict(e, score=e["points"] if ok else 0.0, passed=ok, text=text, failed=failed))
    return res


def indent(s):
    return "\n".join("    " + l for l in (s or "").split("\n"))


def num(x):
    return int(x) if float(x).is_integer() else x


def write_gradescope(path, ex, given, note, elapsed):
    tests = []
    for i, e in enumerate(ex, 1):
        tests.append({"name": "stage %d: %s" % (e["stage"], e["name"]), "number": "%d.%d" % (e["stage"], i),
                      "score": num(e["score"]), "max_score": num(e["points"]),
                      "status": "passed" if e["passed"] else "failed", "visibility": e["visibility"],
                      "output": e["text"], "output_format": "text"})
    if given:
        tests.append({"name": "given code and controls (no points)", "score": 0, "max_score": 0, "status": "failed",
                      "visibility": "visible", "output_format": "text",
                      "output": "Tests of code given to you failed; tell your instructor if you did not change it.\n" +
                      "\n".join("FAILED %s:\n%s" % (t["id"], indent(t["text"])) for t in given)[:EXERCISE_TEXT_MAX]})
    r = {"score": num(sum(e["score"] for e in ex)), "execution_time": int(elapsed), "output": note,
         "output_format": "text", "test_output_format": "text", "visibility": "visible",
         "stdout_visibility": "hidden", "tests": tests}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(r, f, indent=1, ensure_ascii=True)
        f.write("\n")


def write_classroom(path, ex):
    """GitHub Classroom's reporter counts tests, not their scores (pass fraction times max_score):
    every test it gets carries the same weight, the greatest common divisor of the exercises'
    points, so each of its totals is the points an exercise sum gives.
    What its log shows of a test (classroom-resources/autograding-grading-reporter v1): the
    name, then " - line N" unless line_no is 0 (absent, it prints "line undefined"); the message
    only for status "error"; test_code for any status.  So every test has line_no 0, and a
    failed exercise's reason is its test_code as well as its message."""
    unit = reduce(math.gcd, [int(e["points"]) for e in ex if float(e["points"]).is_integer() and e["points"] > 0], 0)
    tests = []
    for e in ex:
        if unit == 0 or not float(e["points"]).is_integer():
            parts, w = 1, e["points"]
        else:
            parts, w = int(e["points"]) // unit, unit
        for k in range(parts):
            name = "stage %d: %s" % (e["stage"], e["name"]) + (" (%d/%d)" % (k + 1, parts) if parts > 1 else "")
            t = {"name": name, "status": "pass" if e["passed"] else "fail", "score": num(w if e["passed"] else 0),
                 "message": e["text"] if k == 0 else "(see part 1)", "line_no": 0}
            if not e["passed"] and k == 0:
                t["test_code"] = e["text"]
            tests.append(t)
    r = {"version": 1, "status": "pass" if all(e["passed"] for e in ex) else "fail",
         "max_score": num(sum(e["points"] for e in ex)), "tests": tests}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(r, f, ensure_ascii=True)
        f.write("\n")


def xml_safe(s):
    """XML 1.0 cannot hold these characters at all, escaped or not: each becomes U+FFFD."""
    return "".join(c if c in "\t\n\r" or ("\x20" <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd") or c >= "\U00010000"
                   else "\ufffd" for c in s)


def write_junit(path, ex, tests, elapsed):
    # Ant's schema (tests/grade/junit.xsd): <testsuites> has no attributes, each suite in it
    # its package and id, and there is no "skipped".
    root = ET.Element("testsuites")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    for i, st in enumerate(sorted({e["stage"] for e in ex})):
        mine = [e for e in ex if e["stage"] == st]
        s = ET.SubElement(root, "testsuite", name="stage%d" % st, tests=str(len(mine)),
                          failures=str(sum(not e["passed"] for e in mine)), errors="0",
                          time="%.3f" % (elapsed / max(1, len({e['stage'] for e in ex}))), timestamp=stamp,
                          hostname="localhost", id=str(i), package="stage%d" % st)
        props = ET.SubElement(s, "properties")
        ET.SubElement(props, "property", name="max_score", value=str(num(sum(e["points"] for e in mine))))
        ET.SubElement(props, "property", name="score", value=str(num(sum(e["score"] for e in mine))))
        for e in mine:
            c = ET.SubElement(s, "testcase", name=e["name"], classname="stage%d" % st, time="0")
            if not e["passed"]:
                first = xml_safe(e["text"].split("\n", 1)[0][:200])
                f = ET.SubElement(c, "failure", message=first, type="failure")
                f.text = xml_safe(e["text"])
        ET.SubElement(s, "system-out").text = ""
        ET.SubElement(s, "system-err").text = ""
    # Points per exercise: properties of each suite (JUnit has none per case in the Ant schema).
    for s in root:
        props = s.find("properties")
        for e in ex:
            if "stage%d" % e["stage"] == s.get("name"):
                ET.SubElement(props, "property", name="points:" + e["name"],
                              value="%s/%s" % (num(e["score"]), num(e["points"])))
    ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)


class TapDumper(yaml.SafeDumper):
    """PyYAML, with every text as a literal block ("|"): TAP::Parser's YAML reader reads no
    other multi-line form (not "|-", not a plain or quoted scalar folded over lines), and a
    plain scalar that PyYAML folds puts the rest of a long line on a line of its own, which
    that reader takes for a key when it looks like one ("--no-lockdep ...: ...")."""


def _str(dumper, s):
    # yaml_text's texts end in a newline; keys do not, and stay plain.
    return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|" if s.endswith("\n") else None)


TapDumper.add_representer(str, _str)
YAML_BREAKS = {"\r": "\n", "\x85": "\n", "\u2028": "\n", "\u2029": "\n", "\ufeff": "\ufffd"}


def yaml_text(s):
    """What both TAP readers (TAP::Parser and tappy) read back as a literal block: YAML's
    printable characters (others become U+FFFD), its other line breaks as newlines, tabs
    expanded, no trailing spaces and no empty lines (either would make PyYAML quote it, or end
    the block there for TAP::Parser), the first line without leading spaces (else PyYAML adds
    an indentation indicator, which TAP::Parser does not read), a backslash before a line that
    starts with "..." (tappy ends the block at any indented "..."), and a final newline (a
    plain "|", not "|-").  Empty text stays empty (PyYAML writes '')."""
    s = "".join(YAML_BREAKS.get(c, c if c in "\t\n" or "\x20" <= c <= "\x7e" or c == "\xa0" or
                                "\xa1" <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c >= "\U00010000"
                                else "\ufffd") for c in s)
    lines = [l.expandtabs(4).rstrip() for l in s.split("\n")]
    lines = [l for l in lines if l]
    if not lines:
        return ""
    lines[0] = lines[0].lstrip()
    lines = ["\\" + l if l.lstrip().startswith("...") else l for l in lines]
    return "\n".join(lines) + "\n"


def tap_comment(s):
    """Text as TAP comments: every line behind "# ", so no line of it is a plan, a test, a
    version or "Bail out!" to any reader."""
    return "".join("# %s\n" % l for l in yaml_text(s).split("\n") if l)


def write_tap(path, ex, note):
    with open(path, "w", encoding="utf-8") as f:
        f.write("TAP version 13\n1..%d\n" % len(ex))
        f.write(tap_comment(note))
        for i, e in enumerate(ex, 1):
            # A "#" in a description starts a directive (SKIP, TODO): TAP's escape is "\#".
            desc = "stage%d %s (%s/%s points)" % (e["stage"], e["name"].replace("\\", "\\\\").replace("#", "\\#"),
                                                  num(e["score"]), num(e["points"]))
            f.write("%s %d - %s\n" % ("ok" if e["passed"] else "not ok", i, desc))
            if e["passed"]:
                continue
            block = yaml.dump({"message": yaml_text(e["text"]), "failed_tests": yaml_text(" ".join(t["id"] for t in e["failed"])),
                               "points": num(e["points"])}, Dumper=TapDumper, allow_unicode=True, width=float("inf"),
                              sort_keys=False)
            f.write("  ---\n" + "".join("  " + l + "\n" for l in block.splitlines()) + "  ...\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", required=True)
    ap.add_argument("--exercises", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--note")
    ap.add_argument("--elapsed", type=float, default=0.0)
    ap.add_argument("stages", nargs="+")
    a = ap.parse_args()
    dirs = {}
    for s in a.stages:
        n, _, d = s.partition("=")
        if not n.isdigit() or not d:
            die("'%s': want STAGE=DIRECTORY" % s)
        dirs[int(n)] = d
    tests, exercises = load_course(a.points, a.exercises, set(dirs))
    if not exercises:
        die("%s lists no exercise of the stages asked for" % a.exercises)
    tampered = []
    for n, d in dirs.items():
        grade_stage(n, d, tests, tampered)
    ex = sorted(exercise_results(exercises), key=lambda e: e["stage"])
    given = [t for t in tests if not t["exercises"] and not t["passed"]]
    note = ""
    if a.note and os.path.exists(a.note):
        with open(a.note, "rb") as f:
            note = f.read(64 * 1024).decode("utf-8", errors="replace")
    if tampered:
        # Void: the run's results cannot be believed, not even the failures'.
        why = VOID + "\n" + "\n".join("  " + t for t in tampered[:20])
        for e in ex:
            e.update(score=0.0, passed=False, text=why + ("\n\n" + e["text"] if e["text"] else ""),
                     failed=e["failed"] or e["tests"])
        note = why + "\n" + note
    write_gradescope(os.path.join(a.out, "results.json"), ex, given, note, a.elapsed)
    write_classroom(os.path.join(a.out, "classroom.json"), ex)
    write_junit(os.path.join(a.out, "junit.xml"), ex, tests, a.elapsed)
    write_tap(os.path.join(a.out, "grade.tap"), ex, note)
    score, most = sum(e["score"] for e in ex), sum(e["points"] for e in ex)
    lines = []
    for n in sorted(dirs):
        mine = [e for e in ex if e["stage"] == n]
        lines.append("grade stage%d: %s of %s points; %d of %d exercises pass" % (
            n, num(sum(e["score"] for e in mine)), num(sum(e["points"] for e in mine)),
            sum(e["passed"] for e in mine), len(mine)))
    with open(os.path.join(a.out, "summary.txt"), "w", encoding="utf-8") as f:
        for e in ex:
            if not e["passed"]:
                first = e["failed"][0] if e["failed"] else None
                why = (first["text"] or "").strip().split("\n", 1)[0][:300] if first else "no test names it"
                f.write("FAILED stage %d: %s (0 of %s points): %s: %s\n" % (
                    e["stage"], e["name"], num(e["points"]), first["id"] if first else "-", why))
        if tampered:
            f.write("VOID: %s %s\n" % (VOID, "; ".join(tampered[:5])[:1000]))
        f.write("grade: %s of %s points\n" % (num(score), num(most)))
    if tampered:
        lines.append("grade: " + VOID)
    for l in lines:
        print(l)
    print("grade: %s of %s points (%s/results.json, junit.xml, grade.tap, classroom.json)" % (num(score), num(most), a.out))


if __name__ == "__main__":
    main()
