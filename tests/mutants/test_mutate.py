#!/usr/bin/env python3
"""test_mutate.py - code/tools/mutate.py makes the mutants it promises, the same list every run."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "code", "tools"))
import mutate  # noqa: E402

FIXTURE = os.path.join(HERE, "fixture.c")
with open(FIXTURE) as f:
    TEXT = f.read()
F = "fixture.c"

# What the fixture must give, in this order: KEY, line, new text of that line.
EXPECTED = [
    ("cond:if (!t)", 10, "\tif (!(!t))"),
    ("drop:old = atomic_inc_return(&t->count);", 13, "\t;\t/* mutant: dropped */"),
    ("atomic:old = atomic_inc_return(&t->count);", 13,
     "\told = ({ int __m = atomic_read(&t->count) + 1; atomic_set(&t->count, __m); __m; });"),
    ("relaxed:old = atomic_inc_return(&t->count);", 13, "\told = atomic_inc_return_relaxed(&t->count);"),
    ("drop:lock(t);", 16, "\t;\t/* mutant: dropped */"),
    ("swap:lock(t);", 16, "\tcounter++;"),
    ("drop:counter++;", 17, "\t;\t/* mutant: dropped */"),
    ("cmp#1:if (old >= 2 && t->n < 3)", 20, "\tif (old < 2 && t->n < 3)"),
    ("cmp#2:if (old >= 2 && t->n < 3)", 20, "\tif (old >= 2 && t->n >= 3)"),
    ("drop:kref_put(&t->ref, release);", 22, "\t;\t/* mutant: dropped */"),
    ("atomic:kref_put(&t->ref, release);", 22,
     "\t({ int __m = kref_read(&t->ref) - 1; atomic_set(&(&t->ref)->refcount, __m); "
     "if (!__m) (release)(&t->ref); !__m; });"),
]


class Mutate(unittest.TestCase):
    def test_every_kind_on_its_line_and_nothing_else(self):
        got = [(k[len(F) + 1:], no, change[no]) for k, no, _, change in mutate.mutants(F, TEXT, False)]
        self.assertEqual(got, EXPECTED)

    def test_exercise_regions_only(self):
        got = [k[len(F) + 1:] for k, _, _, _ in mutate.mutants(F, TEXT, True)]
        self.assertEqual(got, [e[0] for e in EXPECTED if e[1] == 13])

    def test_a_mutant_changes_its_line_or_its_two_lines_only(self):
        for key, no, _, change in mutate.mutants(F, TEXT, False):
            new = mutate.apply(TEXT, change).split("\n")
            old = TEXT.split("\n")
            differ = [i + 1 for i, (a, b) in enumerate(zip(old, new)) if a != b]
            self.assertEqual(len(old), len(new), key)
            self.assertIn(differ, ([no], [no, no + 1]), key)

    def test_same_list_every_run_in_a_fresh_process(self):
        run = lambda: subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "code", "tools", "mutate.py"),
                                      "list", FIXTURE], capture_output=True, text=True, check=True).stdout
        first = run()
        self.assertEqual(len(first.splitlines()), len(EXPECTED))
        self.assertEqual(first, run())

    def test_comments_and_strings_are_not_mutated(self):
        text = '\nint f(void)\n{\n\tg("a == b"); /* x < y */\n\treturn 0;\n}\n'
        self.assertEqual([k for k, _, _, _ in mutate.mutants(F, text, False)], [F + ':drop:g("a == b"); /* x < y */'])

    def test_a_repeated_line_gets_a_distinct_key(self):
        text = "\nvoid f(void)\n{\n\tg();\n\th();\n\tg();\n}\n"
        keys = [k for k, _, _, _ in mutate.mutants(F, text, False)]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertIn(F + ":drop:g();#2", keys)


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=1).result
    n, bad = r.testsRun, len(r.failures) + len(r.errors)
    print("check-mutate: %d passed, %d failed" % (n - bad, bad))
    sys.exit(1 if bad else 0)
