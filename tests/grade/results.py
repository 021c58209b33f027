#!/usr/bin/python3
"""results.py - what the grader's own tests read from a Gradescope results.json, read one way.

    results.py score FILE          "SCORE MAX": the file's score, and its tests' max_score summed
    results.py reason FILE TEXT    exit 0 if some failed test's output holds TEXT, else 1
    results.py scoring FILE STAGE  the names of stage STAGE's tests that scored points, one a line

Gradescope's spec makes a test's max_score optional and puts none at the top, so MAX is the
sum of what the tests carry.  A file that is missing or not such JSON: a message, exit 2.
"""
import json
import sys


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        die("results.py: %s: %s" % (path, e))
    if not isinstance(r, dict) or "score" not in r or not isinstance(r.get("tests"), list):
        die("results.py: %s: not a results.json with a score and tests" % path)
    return r


def main(argv):
    if len(argv) < 3 or argv[1] not in ("score", "reason", "scoring"):
        die(__doc__.split("\n\n")[1])
    r = load(argv[2])
    if argv[1] == "score":
        print(r["score"], sum(t.get("max_score", 0) for t in r["tests"]))
        return 0
    if len(argv) != 4:
        die("results.py: %s needs one more argument" % argv[1])
    if argv[1] == "reason":
        return 0 if any(argv[3] in t.get("output", "") for t in r["tests"] if t.get("status") == "failed") else 1
    for t in r["tests"]:
        if t.get("score", 0) > 0 and t["name"].startswith("stage %s:" % argv[3]):
            print(t["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
