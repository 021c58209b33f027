# tests/lib/student.mk - what a student runs by hand: a scenario on a build that is never stale.
# Included by the top-level Makefile (STAGES, stage_dir, HELP come from it).

# run-stageN SCRIPT=FILE [ARGS=...] - rebuild stage N if its sources changed,
# then run the script on it: build/student/stageN/ksim (the reference with
# SOLUTIONS=1).  Running that ksim by hand after editing exercises/ runs the
# old code; this cannot.
HELP += "run-stageN       rebuild stage N, then run a scenario on it: make run-stage1 SCRIPT=code/scenarios/mouse-pinned.ksh"
define RUN_STAGE
.PHONY: run-stage$(1)
run-stage$(1): $(call stage_dir,$(1))/ksim
	$(Q)test -n "$(SCRIPT)" || { echo "run-stage$(1): say which script: make run-stage$(1) SCRIPT=code/scenarios/NAME.ksh" >&2; exit 2; }
	@echo "run-stage$(1): $(call stage_dir,$(1))/ksim $(ARGS) $(SCRIPT)" >&2
	$(Q)$(call stage_dir,$(1))/ksim $(ARGS) $(SCRIPT)
endef
$(foreach n,$(STAGES),$(eval $(call RUN_STAGE,$(n))))

# hint-stageN [EX=name] [LEVEL=n] - the next level of a hint (tests/lib/hint.sh):
# for the first exercise of the stage not started or failing, or for EX.
HELP += "hint-stageN      the next hint level for your first unfinished or failing exercise of stage N (EX=name, LEVEL=n; LEVEL=1 starts over)"
define HINT_STAGE
.PHONY: hint-stage$(1)
hint-stage$(1):
	$(Q)tests/lib/hint.sh $(1) "$(EX)" "$(LEVEL)"
endef
$(foreach n,$(STAGES),$(eval $(call HINT_STAGE,$(n))))

# explain-stageN - the failing schedules of the last make check-stageN,
# drawn again as lifelines (tests/lib/explain.sh): each SVG's path and the
# command that replays it.  Opens nothing.
HELP += "explain-stageN   draw the failing schedules of your last make check-stageN as lifelines (SVG paths and replay commands; SOLUTIONS=1 the reference's)"
define EXPLAIN_STAGE
.PHONY: explain-stage$(1)
explain-stage$(1): $(BUILD)/tools/trace2dot
	$(Q)T2D=$(BUILD)/tools/trace2dot tests/lib/explain.sh $(call stage_dir,$(1))
endef
$(foreach n,$(STAGES),$(eval $(call EXPLAIN_STAGE,$(n))))

# check-explain - a failing explorer harness leaves its drawing: a stage-4
# mistake's remove-self-race fails, its message names the SVG, and the SVG
# names functions of the student's file; the reference leaves none.  And
# stage 5's shared SRCU index is drawn with each access's index, its end a deadlock.
HELP += "check-explain    a failing explorer harness is drawn: the SVG exists and names the student's functions (a stage-4 mistake); stage 5's SRCU indexes and deadlock"
CHECK_TARGETS += check-explain
.PHONY: check-explain
check-explain: $(BUILD)/.deps-ok $(BUILD)/tools/trace2dot $(BUILD)/mistake/stage4/remove-self-wakes-before-unbreak/test_explore \
		$(BUILD)/stage4/ksim $(BUILD)/stage4/tests/test_explore $(BUILD)/mistake/stage5/index-in-a-static/test_explore
	$(Q)T2D=$(BUILD)/tools/trace2dot tests/lib/check-explain.sh $(BUILD)/mistake/stage4/remove-self-wakes-before-unbreak \
	  $(BUILD)/stage4 $(BUILD)/check-explain $(BUILD)/mistake/stage5/index-in-a-static

# progress - every stage's exercises: done, failing, not started (tests/lib/progress.sh).
HELP += "progress         one table of every stage's exercises: done, failing, not started (your exercises/; STAGES=\"1 2\")"
.PHONY: progress
progress:
	$(Q)tests/lib/progress.sh --stages "$(GRADED_STAGES)"

# A student build from another exercises directory, for check-progress:
# PROGRESS_EX=DIR builds DIR/stageN into PROGRESS_BUILD/stageN (default
# $(BUILD)/progress-build) with the rules of every build (STAGE_RULES and
# one STAGE_OBJ per source, Makefile), read when make starts, so
# check-progress lays DIR out first and then calls make with it.
PROGRESS_BUILD ?= $(BUILD)/progress-build
ifneq ($(PROGRESS_EX),)
$(foreach n,$(STAGES),$(eval $(call STAGE_RULES,$(n),$(PROGRESS_EX),$(PROGRESS_BUILD)/stage$(n),0)))
$(foreach n,$(STAGES),$(foreach c,$(S$(n)_$(PROGRESS_EX)_SRC),\
	$(eval $(call STAGE_OBJ,$(n),$(PROGRESS_EX),$(c)))))
endif

# check-progress - make progress on the skeletons (all not started), the
# solutions (all done) and a copy of the solutions with one wrong (failing).
HELP += "check-progress   make progress's own test: skeletons, solutions, one wrong solution (stages 1 and 2; check-progress-full every stage)"
CHECK_TARGETS += check-progress
.PHONY: check-progress check-progress-full
check-progress check-progress-full: $(BUILD)/.deps-ok
	$(Q)tests/lib/check-progress.sh $(BUILD)/progress-test "$(if $(filter %-full,$@),$(GRADED_STAGES),$(filter 1 2,$(GRADED_STAGES)))"

# check-hints - every exercise has its three levels, naming only what exists;
# then the check itself, shown failing on broken copies.
HELP += "check-hints      every exercise's hints: three levels, names that exist, no solution verbatim (and that check's own test)"
CHECK_TARGETS += check-hints
.PHONY: check-hints
check-hints:
	$(Q)code/tools/check-hints.sh
	$(Q)code/tools/check-hints-test.sh $(BUILD)/hints-test

# debug-stageN TEST=NAME | SCRIPT=FILE - one test of the stage's suites, or
# one scenario, under gdb (tests/lib/debug.sh): your build, SOLUTIONS=1 the
# reference.  The test runs in one process (CK_FORK=no) with a breakpoint on it.
DEBUG_PACKAGES := gdb
HELP += "debug-stageN     one test under gdb, in one process (TEST=name: make debug-stage1 TEST=kobject_get_takes_a_reference), or a scenario (SCRIPT=FILE)"
define DEBUG_STAGE
.PHONY: debug-stage$(1)
debug-stage$(1): $(call stage_dir,$(1))/ksim $(if $(filter 1,$(SOLUTIONS)),$(S$(1)_solutions_TESTS),$(S$(1)_exercises_TESTS))
	$(Q)code/tools/deps.sh $(DEBUG_PACKAGES)
	$(Q)TEST="$(TEST)" SCRIPT="$(SCRIPT)" tests/lib/debug.sh $(1) $(call stage_dir,$(1))
endef
$(foreach n,$(STAGES),$(eval $(call DEBUG_STAGE,$(n))))

# check-debug - make debug-stageN without a prompt (gdb -batch): the test's
# breakpoint is reached in the suite's own process, and the test passes;
# a scenario's oops stops at the fault.
HELP += "check-debug      make debug-stageN's own test: a test and a scenario under gdb -batch (stage 1, the reference)"
CHECK_TARGETS += check-debug
.PHONY: check-debug
check-debug: $(BUILD)/.deps-ok $(BUILD)/stage1/ksim $(S1_solutions_TESTS)
	$(Q)code/tools/deps.sh $(DEBUG_PACKAGES)
	$(Q)tests/lib/check-debug.sh $(BUILD)/stage1 $(BUILD)/check-debug

# check-warnings - a submission with a warning still builds, runs its tests
# and is graded, the warning reported (the reference's flags refuse it).
# The grader's prebuilt objects are prerequisites, as for check-grade, so
# make check's build step makes them, not two checks at once.
HELP += "check-warnings   a student's code with a warning: built, tested, graded, the warning reported"
CHECK_TARGETS += check-warnings
.PHONY: check-warnings
check-warnings: $(BUILD)/.deps-ok $(GRADE_PREBUILD) $(GRADE_PREBUILD_STUDENT)
	$(Q)CC="$(CC)" REF_CFLAGS="$(S1_solutions_CFLAGS)" GRADE_PACKAGES="$(GRADE_PACKAGES)" \
	  tests/lib/check-warnings.sh $(BUILD)/check-warnings

# check-first-screen - a student's first make check-stageN, in a copy of
# the tree with no results and the exercises make exercises writes: at
# most 40 lines before the tally in every stage, every exercise listed
# with its FILE:LINE and hint command, the log of every report; V=1 and
# one exercise left (tests/lib/check-first-screen.sh).  The copy starts
# from this tree's student builds (the grader's prebuilt ones, which make
# check's build step makes anyway) rather than compiling them again; only
# a plain build/ can be lent, since the copy's make is a student's (gcc,
# no SAN).
HELP += "check-first-screen  the skeleton's first make check-stageN, every stage: at most 40 lines before the tally, the exercises listed"
CHECK_TARGETS += check-first-screen
.PHONY: check-first-screen
check-first-screen: $(BUILD)/.deps-ok $(if $(filter build,$(BUILD)),$(GRADE_PREBUILD) $(GRADE_PREBUILD_STUDENT) $(BUILD)/tools/trace2dot)
	$(Q)tests/lib/check-first-screen.sh $(abspath $(BUILD))/first-screen $(if $(filter build,$(BUILD)),$(BUILD))
