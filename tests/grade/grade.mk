# tests/grade/grade.mk - grading a course: make grade, the Gradescope bundle, and their tests.
# Included by the top-level Makefile, which defines BUILD, CC, CFLAGS, STAGES, GRADED_STAGES, HELP.
# What is graded is GRADED_STAGES: the stages with exercises (code/tools/stages.sh).

# What grading needs on a grading machine (a subset of DEB_PACKAGES: no
# book, no figures).  The Gradescope bundle's setup.sh installs the same.
# python3 and python3-yaml write the formats (tests/grade/gradefmt.py);
# util-linux (setpriv, unshare) keeps the submission on its side; binutils
# (nm, objdump, readelf) reads its objects (tests/grade/objgate.sh).
GRADE_PACKAGES := gcc binutils libc6-dev make check pkg-config valgrind libsubunit-dev python3 python3-yaml util-linux
# What the tests of the grader need besides: real parsers for its formats
# (python3's json and xml, libxml2-utils' xmllint with the JUnit schema,
# perl's TAP::Parser, and tappy: python3-tap, which reads YAML blocks only
# with python3-more-itertools, a Recommends that deps.sh does not bring),
# zip for the bundle, git to build it, and procps
# (pgrep: what the sandbox's user has left running).
GRADE_TEST_PACKAGES := python3 python3-yaml python3-tap python3-more-itertools perl zip unzip libxml2-utils git procps

# The objects every grading copy shares (tests/grade/grade.sh copies them in),
# and the student builds of this tree's exercises/, which the copy's make
# brings up to date with the submission's files.
.PHONY: grade-prebuild grade-prebuild-student
GRADE_PREBUILD := $(KERNEL_OBJ) $(SHELL_OBJ) $(TESTLIB_OBJ) $(BUILD)/tools/netdeny
GRADE_PREBUILD_STUDENT := $(foreach n,$(GRADED_STAGES),$(BUILD)/student/stage$(n)/ksim $(S$(n)_exercises_TESTS))
grade-prebuild: $(GRADE_PREBUILD)

# The sandbox's socket filter (tests/grade/sandbox.sh); part of all, so that
# make CC=clang all (check-clang) builds it with clang and -Werror too.
all: $(BUILD)/tools/netdeny
$(BUILD)/tools/netdeny: tests/grade/netdeny.c
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
grade-prebuild-student: $(GRADE_PREBUILD_STUDENT)

HELP += "grade            grade your exercises/ with the course's tests (STAGES=\"1 2\", SUBMISSION=DIR): build/grade/results.json, junit.xml, grade.tap"
.PHONY: grade
grade:
	$(Q)GRADE_PACKAGES="$(GRADE_PACKAGES)" GRADE_NETDENY="$(abspath $(BUILD))/tools/netdeny" tests/grade/grade.sh \
	  --stages "$(GRADED_STAGES)" --out $(BUILD)/grade $(if $(SUBMISSION),--submission $(SUBMISSION))

# ---------------------------------------------------------------- Gradescope
# build/gradescope/stageN/autograder.zip, one per stage: the course's tracked
# files at HEAD (git archive: nothing untracked, nothing of build/ or .git)
# with the solutions of the stages N builds on (code/tools/stage-chain.sh)
# and no others, nor the mistakes' patches that quote the others
# (tests/stageK/mistakes), with setup.sh and run_autograder at its root; it
# grades stage N alone, out of stage N's points, built on those solutions.
GRADESCOPE_ZIPS := $(foreach n,$(GRADED_STAGES),$(BUILD)/gradescope/stage$(n)/autograder.zip)
HELP += "gradescope-bundle  build/gradescope/stageN/autograder.zip for STAGE=N (default: every stage): upload it as stage N's autograder"
.PHONY: gradescope-bundle
gradescope-bundle: $(if $(STAGE),$(BUILD)/gradescope/stage$(STAGE)/autograder.zip,$(GRADESCOPE_ZIPS))
$(BUILD)/gradescope/stage%/autograder.zip: $(wildcard $(shell git ls-files 2>/dev/null)) tests/grade/gradescope/run_autograder tests/grade/gradescope/setup.sh
	$(Q)code/tools/deps.sh zip git
	$(Q)tests/grade/bundle.sh $* "$(GRADE_PACKAGES)" $@

# ---------------------------------------------------------------- tests of the grader
# make check grades stages 1 and 2 (the quick ones) with make grade;
# check-grade-full every stage (about five minutes more).
HELP += "check-grade      the grader's own tests: formats fuzzed, bundles, skeletons score 0 (stages 1, 2), adversaries in a scratch /autograder (as root), the Classroom step"
HELP += "check-grade-full the same with make grade on every stage ($(GRADED_STAGES))"
CHECK_TARGETS += check-grade
.PHONY: check-grade check-grade-full
# (The prebuilt objects are prerequisites here too, so that make check's
# build step makes them, not two of its checks at once.)
check-grade check-grade-full: $(BUILD)/.deps-ok $(GRADESCOPE_ZIPS) \
		$(GRADE_PREBUILD) $(GRADE_PREBUILD_STUDENT)
	$(Q)code/tools/deps.sh $(GRADE_TEST_PACKAGES)
	$(Q)GRADE_PACKAGES="$(GRADE_PACKAGES)" GRADED_STAGES="$(GRADED_STAGES)" GRADE_NETDENY="$(abspath $(BUILD))/tools/netdeny" \
	  tests/grade/check-grade.sh $(BUILD)/grade-test $(BUILD)/gradescope "$(if $(filter %-full,$@),$(GRADED_STAGES),$(filter 1 2,$(GRADED_STAGES)))"
