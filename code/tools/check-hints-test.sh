#!/bin/bash
# check-hints-test.sh WORK - check-hints.sh fails on each kind of broken hint.
#
# In a scratch copy of code/ and solutions/ (WORK), each case breaks one
# thing and check-hints.sh must fail with the message that names it; the
# copy is restored between cases.  Last line: "check-hints-test: N passed, M failed".
set -u
work=$1
src=$(pwd)
pass=0 fail=0
rm -rf "$work" && mkdir -p "$work"
cp -r code solutions "$work/"
cp -r solutions "$work/solutions.orig"

# expect STAGE WANT-STATUS TEXT DESCRIPTION - run the checker on one stage of the copy.
expect() {
	local out rc
	out=$(cd "$work" && "$src/code/tools/check-hints.sh" "$1" 2>&1); rc=$?
	if [ "$rc" = "$2" ] && grep -qF -- "$3" <<<"$out"; then
		echo "ok $4"; pass=$((pass + 1))
	else
		echo "FAIL $4: exit $rc (want $2), output:"; sed 's/^/    /' <<<"$out"; fail=$((fail + 1))
	fi
	rm -rf "$work/solutions" && cp -r "$work/solutions.orig" "$work/solutions"
}

expect 1 0 "check-hints: 4 passed, 0 failed" "the copy's stage 1 hints pass as they are"
sed -i 's/`kref_get()` (`kref.h`) adds/`kref_gett()` (`kref.h`) adds/' "$work/solutions/stage1/hints.txt"
expect 1 1 "names \`kref_gett()\`: kref_gett is not in this stage's code" "a hint naming a function that does not exist"
sed -i '0,/^3: /s/^3: /3: as kref_gett() does, /' "$work/solutions/stage1/hints.txt"
expect 1 1 "names kref_gett, which is not in this stage's code" "a hint naming, outside backquotes, a function that does not exist"
sed -i '0,/^2: /s/^2: /2: with KREF_MAGIC_BIAS, /' "$work/solutions/stage1/hints.txt"
expect 1 1 "names KREF_MAGIC_BIAS, which is not in this stage's code" "a hint naming, outside backquotes, a constant that does not exist"
sed -i 's/(`kref.h`) adds/(`krefs.h`) adds/' "$work/solutions/stage1/hints.txt"
expect 1 1 "no file krefs.h in this stage" "a hint naming a file that does not exist"
sed -i '/^mouse_unplug$/,$d' "$work/solutions/stage1/hints.txt"
expect 1 1 "exercise 'mouse_unplug' has no hints in solutions/stage1/hints.txt" "an exercise without hints"
sed -i '/^kobject_put$/,/^$/{/^3: /,/^$/d}' "$work/solutions/stage1/hints.txt"
expect 1 1 "'kobject_put' has 2 levels" "an exercise with two levels"
sed -i 's/^3: One statement: `kref_put()` with/3: `kref_put(\&kobj->kref, kobject_release);` with/' "$work/solutions/stage1/hints.txt"
expect 1 1 "gives the solution's line verbatim: kref_put(&kobj->kref, kobject_release);" "a hint that gives the solution verbatim"
sed -i 's/^1: one more holder/1: one "more" holder/' "$work/solutions/stage1/hints.txt"
expect 1 1 "level 1 of 'kobject_get' has a quote" "a quote in level 1"
printf 'kobject_gone\n1: a\n2: b\n3: c\n' >>"$work/solutions/stage1/hints.txt"
expect 1 1 "'kobject_gone' is no exercise of stage 1" "hints for an exercise that does not exist"
printf '2: a level without its exercise\n' | cat - "$work/solutions/stage1/hints.txt" >"$work/h" && mv "$work/h" "$work/solutions/stage1/hints.txt"
expect 1 2 "solutions/stage1/hints.txt:1:1: a level before the first exercise's name" "a malformed hints file: FILE:LINE:COL, exit status 2"
# An exercise whose solution calls a delay point (none does today: the window the remove_self
# scenarios need is given code's) must say so in its hints.
sed -i '/BEGIN EXERCISE sysfs_remove_self/,/END EXERCISE/s/^\tsysfs_break_active_protection(sd);$/&\n\tdelay_point("sysfs_remove_self");/' \
	"$work/solutions/stage4/sysfs_active.c"
expect 4 1 "'sysfs_remove_self' calls delay_point(\"sysfs_remove_self\") (scenarios depend on it), and no level of its hints says so" \
	"a solution that calls delay_point(\"sysfs_remove_self\") without a hint that says so"
sed -i 's/^\(3: `mutex_lock()` on `sysfs_mutex`; break\.\)/\1 `delay_point("sysfs_remove_selph")`./' "$work/solutions/stage4/hints.txt"
expect 4 1 "no DELAY_POINT(sysfs_remove_selph) in this stage" "a hint naming a delay point that does not exist"
echo "check-hints-test: $pass passed, $fail failed"
[ $fail = 0 ]
