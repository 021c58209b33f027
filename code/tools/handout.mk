# code/tools/handout.mk - the course's handout (make handout), what a handout refuses, and the scan for answers.
# Included by the top-level Makefile, which defines BUILD, STAGES, GRADED_STAGES, SOLUTIONS, HELP, CHECK_TARGETS.

HANDOUT_DIR := build/handout
HELP += "handout          build/handout/: the repository a course gives its students (git, one commit): no solutions/, mistakes, variants or mutants"
.PHONY: handout
handout: build/handout.stamp
# (The stamp, outside the handout's tree: a file in it would be handed out.)
build/handout.stamp: $(wildcard $(shell git ls-files 2>/dev/null)) code/tools/handout.sh
	$(Q)code/tools/deps.sh git
	$(Q)code/tools/handout.sh $(HANDOUT_DIR)
	$(Q)touch $@

# check-answers - no answer line (a line of a reference exercise body that
# no given code holds) in the handout or in any stage's Gradescope bundle,
# whose own bases' solutions are allowed; and the scan catches one planted
# in a copy of each (tests/grade/check-answers.sh).  A few seconds.
HANDOUT_ZIPS := $(foreach n,$(GRADED_STAGES),$(BUILD)/gradescope/stage$(n)/autograder.zip)
HELP += "check-answers    the handout and every stage's bundle quote no answer line (and the scan catches one planted in a copy)"
CHECK_TARGETS += check-answers
.PHONY: check-answers
check-answers: build/handout.stamp $(HANDOUT_ZIPS)
	$(Q)code/tools/deps.sh python3 zip unzip
	$(Q)tests/grade/check-answers.sh $(BUILD)/check-answers $(HANDOUT_DIR) $(HANDOUT_ZIPS)

# check-handout - a clone of the handout works as a student uses it:
# check-stage1 and grade on the skeleton, full marks with the reference
# copied into its exercises/ (stage 2 on that stage 1), and what needs the
# reference stops with the reason (tests/grade/check-handout.sh).  About 17
# CPU-seconds: the clone compiles the kernel afresh.
HELP += "check-handout    a clone of the handout: check-stage1 and grade work on the skeleton and on the reference copied in; SOLUTIONS=1, make, check, book say they need the reference"
CHECK_TARGETS += check-handout
.PHONY: check-handout
check-handout: $(BUILD)/.deps-ok build/handout.stamp
	$(Q)code/tools/deps.sh git $(GRADE_PACKAGES)
	$(Q)GRADE_PACKAGES="$(GRADE_PACKAGES)" tests/grade/check-handout.sh $(BUILD)/check-handout $(HANDOUT_DIR)

# ---------------------------------------------------------------- in a handout
# A handout has no solutions/ (code/tools/handout.sh).  There a student's
# build of stage N builds its base stages from exercises/ (the Makefile's
# base_tree), and whatever needs the reference stops here with a message
# instead of failing on a missing file: building or testing the reference,
# the course's own tests of it, the book (it shows the reference's runs),
# the bundles.  What a student runs (check-stageN, grade, progress,
# hint-stageN, run-stageN, stageN, ...) works.
ifeq ($(wildcard solutions/stage*),)
ifeq ($(filter 1,$(SOLUTIONS)),1)
$(error SOLUTIONS=1: the reference solutions are not in this handout, only your exercises/; run the target without SOLUTIONS=1 to build and test yours)
endif
HANDOUT_REFUSED := $(filter-out $(foreach n,$(STAGES),check-stage$(n)),\
	$(filter all tour book figures bench bench-% real-kernel% mutants mutants-list exercises gradescope-bundle \
		handout check check-% %-reference,$(or $(MAKECMDGOALS),all)))
ifneq ($(HANDOUT_REFUSED),)
$(error make $(HANDOUT_REFUSED): needs the reference solutions, which this handout does not hold (the course runs it in its own checkout). Here: make check-stageN, make grade, make progress, make hint-stageN, make run-stageN SCRIPT=... (make help))
endif
endif
