# The workbook's one Makefile: every target, no recursion.  `make help` lists them.
#
# Layout of the outputs (all under build/, git-ignored):
#   build/kernel/*.o        the simulated kernel, compiled once
#   build/shell/*.o         the scenario runner (userspace side of ksim)
#   build/stageN/ksim       stage N's runner; build/stageN/NAME.so its modules
#   build/stage0/           the demo stage used by tests/kernel
#   build/tests/...         Check suites
# SAN=address|thread|undefined builds everything under build/san-$(SAN)/ instead;
# SAN=address+undefined both of those in one build (what make check runs).
# A compiler other than gcc builds under build/cc-NAME/ (make CC=clang:
# build/cc-clang/stageN/ksim, build/cc-clang/san-$(SAN)/ with SAN).

.DEFAULT_GOAL := all
SHELL := /bin/bash
MAKEFLAGS += --no-builtin-rules

# STAGES: the workbook's stages, lowest first, read from the tree by
# code/tools/stages.sh (code/stage1 and each code/stageN with a BASE): the
# one list that make check, tour, grade, progress and every script that
# walks stages read, so a stage joins them all when its directory lands.
# make TARGET STAGES="1 2" narrows a target to some.  GRADED_STAGES: those
# of them with exercises (exercises/stageN/hints.txt), the ones graded.
STAGES := $(shell code/tools/stages.sh)
GRADED_STAGES := $(filter $(shell code/tools/stages.sh --graded),$(STAGES))
ifeq ($(strip $(STAGES)),)
$(error code/tools/stages.sh named no stage (STAGES is empty): is it there, and executable?)
endif
SOLUTIONS ?= 0
SAN ?=

# The compiler: gcc unless CC is given (make CC=clang, or CC in the
# environment); both build everything with the same flags.  Each compiler
# has a tree of its own, so CC=clang never reuses gcc's objects.
ifeq ($(origin CC),default)
CC := gcc
endif
BUILD := build$(if $(filter gcc,$(CC)),,/cc-$(notdir $(firstword $(CC))))
ifeq ($(SAN),)
SANFLAGS :=
else
BUILD := $(BUILD)/san-$(SAN)
# SAN_LIST: the sanitizers of SAN (address+undefined: two).
comma := ,
SAN_LIST := $(subst +, ,$(SAN))
# AddressSanitizer tracks malloc()/free() itself, so the slab steps aside
# for it; under the others the slab's own fencing still catches a stale access.
SANFLAGS := -fsanitize=$(subst +,$(comma),$(SAN)) -fno-sanitize-recover=all -DKSIM_SANITIZER=1 \
	$(if $(filter address,$(SAN_LIST)),-DKSIM_SLAB_MALLOC=1)
endif

# Call traces are part of what the tests check (a lockdep report names
# the function that took the lock, an oops the one that faulted), so every
# compiler keeps a function that is not marked inline a frame of its own, as
# gcc's -O1 does for one called from outside its file: clang's -O1 would
# inline it into a caller in the same file.
CC_INLINE := $(if $(filter gcc,$(CC)),,$(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),\
	-finline-hint-functions))
# V=1 prints every command; by default a recipe prints what it makes.
Q := $(if $(filter 1,$(V)),,@)

# The flags are ours followed by the user's: CFLAGS, CPPFLAGS and LDFLAGS
# given on the command line or in the environment add to ours (CFLAGS=-O2
# comes after our -O1, so it wins) instead of replacing them.  The user's
# are kept as given in KSIM_USER_*, exported: a make that this one starts
# (check-stageN, make check, the grader's copy) adds them once, not to a
# CFLAGS that already holds ours.
ifndef KSIM_USER_FLAGS
export KSIM_USER_FLAGS := 1
export KSIM_USER_CFLAGS := $(CFLAGS)
export KSIM_USER_CPPFLAGS := $(CPPFLAGS)
export KSIM_USER_LDFLAGS := $(LDFLAGS)
endif
KSIM_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Icode/kernel $(KSIM_USER_CPPFLAGS) -Wall -Wextra -g -O1 \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread $(SANFLAGS) $(CC_INLINE)
# Warnings are errors in our code: the kernel, the tools, the tests, the
# reference solutions.  A student's build (build/student/, STUDENT_WERROR)
# shows them and goes on: a compiler newer than ours may warn about a
# correct exercise, and check-stageN reports the warnings with the tally.
override CFLAGS := $(KSIM_CFLAGS) -Werror $(KSIM_USER_CFLAGS)
STUDENT_WERROR :=
STUDENT_CFLAGS := $(KSIM_CFLAGS) $(STUDENT_WERROR) $(KSIM_USER_CFLAGS)
# -z now: symbols bound at start, not in each explorer run's forked process (tests/lib/explore.c).
override LDFLAGS := -pthread -rdynamic -Wl,-z,now $(SANFLAGS) $(KSIM_USER_LDFLAGS)
LDLIBS := -ldl
MODFLAGS := -fPIC -DKSIM_MODULE
# Check's flags, asked of pkg-config once, when first used: not when the
# Makefile is read, since on a fresh machine make check installs check
# itself first; and not at every use, which was a pkg-config per link.
CHECK_CFLAGS = $(eval CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null))$(CHECK_CFLAGS)
CHECK_LIBS = $(eval CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null))$(CHECK_LIBS)

HELP :=
CHECK_TARGETS :=

# ---------------------------------------------------------------- deps
# The Debian packages the workbook needs; `make deps` installs the missing ones.
# Every name is the same in Debian 12 (bookworm) and 13 (trixie); make
# check-fresh installs them in a fresh root of each.
# DEB_PACKAGES: to build the stages and run their tests (a student's check-stageN).
DEB_PACKAGES := gcc binutils libc6-dev make patch check pkg-config valgrind graphviz pandoc libsubunit-dev
# BOOK_PACKAGES: what the book's PDF is printed with (headless Chromium, about
# 400 MB installed): make book and make tour install it, a student grading a
# stage never needs it.
BOOK_PACKAGES := chromium
# BOOK_CHECK_PACKAGES: what check-book reads the PDF and the EPUB with
# (pdfinfo and pdftohtml; epubcheck, which brings a Java runtime).
BOOK_CHECK_PACKAGES := poppler-utils epubcheck
HELP += "deps             install the Debian packages the workbook needs (apt-get as root; else prints the command)"
.PHONY: deps
deps:
	$(Q)code/tools/deps.sh $(DEB_PACKAGES) $(BOOK_PACKAGES) $(BOOK_CHECK_PACKAGES)

# DEPS_STAMP(stamp, packages) - a stamp that targets depend on.  It holds the
# list it was made for, so a tree built before a package joined the list runs
# the deps step again.
define DEPS_STAMP
ifneq ($$(strip $$(file < $(1))),$$(strip $(2)))
.PHONY: $(1)
endif
$(1):
	$(Q)code/tools/deps.sh $(2)
	$(Q)mkdir -p $$(@D) && echo "$$(strip $(2))" > $$@
endef
$(eval $(call DEPS_STAMP,$(BUILD)/.deps-ok,$(DEB_PACKAGES)))
$(eval $(call DEPS_STAMP,build/.deps-book-ok,$(BOOK_PACKAGES)))
$(eval $(call DEPS_STAMP,build/.deps-book-check-ok,$(BOOK_CHECK_PACKAGES)))

# ---------------------------------------------------------------- kernel
KERNEL_SRC := $(wildcard code/kernel/*.c)
KERNEL_OBJ := $(patsubst code/kernel/%.c,$(BUILD)/kernel/%.o,$(KERNEL_SRC))
SHELL_SRC := $(wildcard code/shell/*.c)
SHELL_OBJ := $(patsubst code/shell/%.c,$(BUILD)/shell/%.o,$(SHELL_SRC))
KERNEL_HDR := $(wildcard code/kernel/*.h)

$(BUILD)/kernel/%.o: code/kernel/%.c $(KERNEL_HDR)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/shell/%.o: code/shell/%.c $(KERNEL_HDR) $(wildcard code/shell/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icode/shell -c $< -o $@

# ---------------------------------------------------------------- stages
# Stage N is built from code/kernel/ plus an overlay of the stages it builds
# on: each stage but the first names its base in code/stageN/BASE (one
# number), and the chain of bases from stage 1 up to N gives the layers,
# code/stageK then solutions/stageK for each stage K of the chain.  For each
# file name the highest layer wins, so a stage directory holds only what
# that stage changes from its base, and `diff -ru code/stageB code/stageN`
# is the patch.  Stage 3 builds on stage 1, not 2: the kernel dropped the
# owner field of stage 2, and stage 3 carries nothing of it.  Stage N's
# own exercise files come from solutions/stageN/ (the reference build, in
# build/stageN/) or from exercises/stageN/ (the student's build, in
# build/student/stageN/).  Files under modules/ become NAME.so; the rest
# link into ksim.
#
# stage_base(N) - the stage N builds on (empty for stage 1); a BASE that
# names no lower stage stops make (code/tools/stage-chain.sh N says why).
# stage_chain(N) - the stages of N's build, lowest first (stage 4: 1 3 4),
# worked out once per stage.  The scripts that walk stages ask
# code/tools/stage-chain.sh, and check-overlay holds the two to the same
# answer.
stage_lower = $(wordlist 1,$(words $(wordlist 2,$(1),1 2 3 4 5 6 7 8 9)),1 2 3 4 5 6 7 8 9)
stage_base = $(foreach b,$(firstword $(file < code/stage$(1)/BASE)),$(if $(filter $(b),$(call stage_lower,$(1))),$(b),\
	$(error code/stage$(1)/BASE:1:1: stage $(1) cannot build on '$(b)', not a lower stage)))
stage_chain_of = $(if $(1),$(call stage_chain_of,$(call stage_base,$(1))) $(1))
$(foreach n,$(STAGES),$(eval STAGE_CHAIN_$(n) := $(strip $(call stage_chain_of,$(n)))))
stage_chain = $(STAGE_CHAIN_$(1))
# stage_layers(N, own) - the directories, lowest first; own is the directory
# tree (solutions or exercises) used for stage N itself.
stage_layers = $(foreach k,$(call stage_chain,$(1)),code/stage$(k) \
	$(if $(filter $(k),$(1)),$(2),$(call base_tree,$(k)))/stage$(k))
# base_tree(K) - where a base stage K's exercise files come from: the
# reference, or in a course's handout, which has no solutions/ (make
# handout), the student's own exercises/stageK: stage 4 builds on your stage 1.
base_tree = $(if $(wildcard solutions/stage$(1)),solutions,exercises)
overlay = $(strip $(foreach f,$(sort $(notdir $(foreach l,$(call stage_layers,$(1),$(2)),$(wildcard $(l)/$(3)*.c)))),\
	$(lastword $(foreach l,$(call stage_layers,$(1),$(2)),$(wildcard $(l)/$(3)$(f))))))
overlay_hdr = $(foreach l,$(call stage_layers,$(1),$(2)),$(wildcard $(l)/*.h))
# Headers: the highest layer first, so a stage's own sysfs.h wins over stage 1's.
# That holds for headers included by lower-layer files too because a
# stage's files include every header as <name.h>, which the compiler looks
# up in the -I directories only; "name.h" would look first in the including
# file's own directory, and code/stage1/device.c would get
# code/stage1/sysfs.h even where stage 3 has its own.  (The kernel's files
# do the same: <linux/sysfs.h>.)  check-overlay checks it on every build.
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
overlay_inc = $(foreach l,$(call reverse,$(call stage_layers,$(1),$(2))),-I$(l))

# STAGE_RULES(N, own, dir, SOLUTIONS-value)
# A student's build (SOLUTIONS-value 0) compiles with STUDENT_CFLAGS and
# keeps what the compiler said about each file next to its object
# (NAME.o.warnings, modules' obj/modules/NAME.o.warnings), so check-stageN can report the
# warnings of a build whose objects are older than this run.
define STAGE_RULES
S$(1)_$(2)_SRC := $$(call overlay,$(1),$(2),)
S$(1)_$(2)_MODSRC := $$(call overlay,$(1),$(2),modules/)
S$(1)_$(2)_MODS := $$(patsubst %.c,$(3)/%.so,$$(notdir $$(S$(1)_$(2)_MODSRC)))
S$(1)_$(2)_MODOBJ := $$(patsubst %.c,$(3)/obj/modules/%.o,$$(notdir $$(S$(1)_$(2)_MODSRC)))
S$(1)_$(2)_HDR := $$(call overlay_hdr,$(1),$(2)) $$(KERNEL_HDR)
S$(1)_$(2)_CFLAGS := $$(if $$(filter 0,$(4)),$$(STUDENT_CFLAGS),$$(CFLAGS)) $$(call overlay_inc,$(1),$(2)) \
	-DKSIM_STAGE=$(1) -DKSIM_SOLUTIONS=$(4)

# ksim is the runner linked with the stage's objects, all of them (modules
# call into the stage by name), compiled once for it and the Check suites.
$(3)/ksim: $$(KERNEL_OBJ) $$(SHELL_OBJ) $(3)/stage.a $$(S$(1)_$(2)_MODS) $$(S$(1)_$(2)_MODOBJ)
	$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(S$(1)_$(2)_CFLAGS) -o $$@ $$(KERNEL_OBJ) $$(SHELL_OBJ) \
		-Wl,--whole-archive $(3)/stage.a -Wl,--no-whole-archive $$(LDFLAGS) $$(LDLIBS) \
		|| { echo "BUILD ERROR: stage $(1) ($(2)) does not link; fix the first error above." >&2; false; }
	@echo "  LD      $$@"

# The stage's objects without the runner's main(), for ksim and the Check
# suites; one rule per object (STAGE_OBJ below), so an edit recompiles its
# own file only and make -j compiles a stage's files side by side.
S$(1)_$(2)_DIR := $(3)
S$(1)_$(2)_OBJ := $$(patsubst %.c,$(3)/obj/%.o,$$(notdir $$(S$(1)_$(2)_SRC)))
S$(1)_$(2)_WARNINGS := $$(S$(1)_$(2)_OBJ:=.warnings) $$(S$(1)_$(2)_MODOBJ:=.warnings)
$(3)/stage.a: $$(S$(1)_$(2)_OBJ)
	$(Q)rm -f $$@
	@echo "  AR      $$@"
	$$(Q)ar rcs $$@ $$(S$(1)_$(2)_OBJ)

# A module is compiled to an object first, which the submission gate
# (tests/grade/objgate.sh) reads as it reads the stage's other objects
# (a prerequisite of ksim, so make keeps it and remakes it when missing).
$(3)/obj/modules/%.o: $$(S$(1)_$(2)_HDR) $$(S$(1)_$(2)_MODSRC)
	$(Q)mkdir -p $$(@D)
	$$(Q)$$(call KEEP_WARNINGS,$$(CC) $$(S$(1)_$(2)_CFLAGS) $$(MODFLAGS) -c -o $$@ $$(filter %/$$*.c,$$(S$(1)_$(2)_MODSRC))) \
		|| { echo "BUILD ERROR: module $$* of stage $(1) ($(2)) does not compile." >&2; false; }
$(3)/%.so: $(3)/obj/modules/%.o
	$$(Q)$$(CC) $$(S$(1)_$(2)_CFLAGS) $$(MODFLAGS) -shared -o $$@ $$< \
		|| { echo "BUILD ERROR: module $$* of stage $(1) ($(2)) does not link." >&2; false; }
	@echo "  MOD     $$@"

# Check suites: tests/stageN/test_*.c, linked with the kernel and the stage.
S$(1)_$(2)_TESTS := $$(patsubst tests/stage$(1)/%.c,$(3)/tests/%,$$(wildcard tests/stage$(1)/test_*.c))
$(3)/tests/%: tests/stage$(1)/%.c $$(wildcard tests/lib/*.h tests/stage*/*.h) $(3)/stage.a $$(KERNEL_OBJ) $$(TESTLIB_OBJ)
	$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(S$(1)_$(2)_CFLAGS) -Itests/lib $$(CHECK_CFLAGS) -o $$@ $$< $(3)/stage.a $$(KERNEL_OBJ) $$(TESTLIB_OBJ) \
		$$(LDFLAGS) $$(CHECK_LIBS) $$(LDLIBS) \
		|| { echo "BUILD ERROR: test $$* of stage $(1) does not compile against $(2)/." >&2; false; }
	@echo "  TEST    $$@"
endef
# KEEP_WARNINGS(command) - run a compiler command whose target is $@,
# showing what it says and keeping it in $@.warnings (empty: nothing said).
KEEP_WARNINGS = { $(1) 2>$@.warnings; rc=$$?; cat $@.warnings >&2; [ $$rc = 0 ]; }
TESTLIB_SRC := $(wildcard tests/lib/*.c)
TESTLIB_OBJ := $(patsubst tests/lib/%.c,$(BUILD)/tests/lib/%.o,$(TESTLIB_SRC))
$(BUILD)/tests/lib/%.o: tests/lib/%.c $(wildcard tests/lib/*.h) $(KERNEL_HDR)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -Itests/lib -c $< -o $@

$(foreach n,$(STAGES),$(eval $(call STAGE_RULES,$(n),solutions,$(BUILD)/stage$(n),1)))
$(foreach n,$(STAGES),$(eval $(call STAGE_RULES,$(n),exercises,$(BUILD)/student/stage$(n),0)))

# STAGE_OBJ(N, own, source) - one object of stage N's stage.a.
define STAGE_OBJ
$(S$(1)_$(2)_DIR)/obj/$(notdir $(3:.c=.o)): $(3) $$(S$(1)_$(2)_HDR)
	$(Q)mkdir -p $$(@D)
	$$(Q)$$(call KEEP_WARNINGS,$$(CC) $$(S$(1)_$(2)_CFLAGS) -c $$< -o $$@) \
		|| { echo "BUILD ERROR: stage $(1) ($(2)) does not compile; fix the first error above." >&2; false; }
endef
$(foreach n,$(STAGES),$(foreach own,solutions exercises,$(foreach c,$(S$(n)_$(own)_SRC),\
	$(eval $(call STAGE_OBJ,$(n),$(own),$(c))))))

# check-overlay - each stage's layers follow its chain of bases, and its
# files and the headers they include (as the compiler reports them) are the
# highest layer's (tests/lib/check-overlay.sh).
HELP += "check-overlay    a stage's build follows its bases (code/stageN/BASE): every file and header is its highest layer's (CC=)"
CHECK_TARGETS += check-overlay
.PHONY: check-overlay
overlay_env = $(foreach n,$(STAGES),$(foreach own,solutions,\
	LAYERS_$(n)_$(own)="$(call stage_layers,$(n),$(own))" \
	CFLAGS_$(n)_$(own)="$(S$(n)_$(own)_CFLAGS) -Itests/lib $(CHECK_CFLAGS)" \
	SOURCES_$(n)_$(own)="$(S$(n)_$(own)_SRC) $(S$(n)_$(own)_MODSRC) $(wildcard tests/stage$(n)/test_*.c)"))
check-overlay: $(BUILD)/.deps-ok
	$(Q)CC="$(CC)" STAGES="$(STAGES)" $(overlay_env) tests/lib/check-overlay.sh $(BUILD)/check-overlay

# check-clang - everything built with clang, each stage graded with it
# (code/tools/check-clang.sh).  Not part of make check, which would then
# install clang (about 220 MB) on every student's machine; CI runs it after.
CLANG_PACKAGES := clang
HELP += "check-clang      build with CC=clang (-Werror) and grade every stage's reference with it; CI runs it (installs clang)"
.PHONY: check-clang
check-clang: $(BUILD)/.deps-ok
	$(Q)code/tools/deps.sh $(CLANG_PACKAGES)
	$(Q)MAKE="$(MAKE)" STAGES="$(STAGES)" code/tools/check-clang.sh

# stage_dir(N) - the build SOLUTIONS= selects: the reference or the student's.
stage_dir = $(if $(filter 1,$(SOLUTIONS)),$(BUILD)/stage$(1),$(BUILD)/student/stage$(1))

HELP += "all              build every stage (reference solutions) into build/stageN/"
HELP += "stageN           build stage N alone (N: $(STAGES); SOLUTIONS=1 for the reference)"
.PHONY: all $(foreach n,$(STAGES),stage$(n))
all: $(foreach n,$(STAGES),$(BUILD)/stage$(n)/ksim) $(BUILD)/stage0/ksim
$(foreach n,$(STAGES),$(eval stage$(n): $(call stage_dir,$(n))/ksim))

# ---------------------------------------------------------------- stage 0: the demo stage of tests/kernel
DEMO_SRC := $(wildcard tests/kernel/demo/*.c)
DEMO_MODSRC := $(wildcard tests/kernel/demo/modules/*.c)
DEMO_MODS := $(patsubst tests/kernel/demo/modules/%.c,$(BUILD)/stage0/%.so,$(DEMO_MODSRC))
$(BUILD)/stage0/ksim: $(KERNEL_OBJ) $(SHELL_OBJ) $(DEMO_SRC) $(KERNEL_HDR) | $(DEMO_MODS)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/kernel/demo -o $@ $(KERNEL_OBJ) $(SHELL_OBJ) $(DEMO_SRC) $(LDFLAGS) $(LDLIBS)
$(BUILD)/stage0/%.so: tests/kernel/demo/modules/%.c $(KERNEL_HDR) $(wildcard tests/kernel/demo/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/kernel/demo $(MODFLAGS) -shared -o $@ $<

include $(sort $(wildcard code/tools/*.mk code/bench/*.mk tests/*/*.mk chapters/*.mk figures/*.mk code/realkernel/*.mk))

# ---------------------------------------------------------------- exercises
# solutions/ is the single source; exercises/ is generated from it and
# committed, so a student has files to edit after a plain clone.
HELP += "exercises        regenerate exercises/ (and the submission gate's tests/grade/shapes/) from the fenced solutions/"
.PHONY: exercises check-exercises
exercises:
	$(Q)for d in solutions/stage*; do code/tools/mkexercises.sh $$d exercises/$${d#solutions/} \
	  tests/grade/shapes/$${d#solutions/} || exit 2; done
	@echo "exercises/ and their shapes (tests/grade/shapes/, the submission gate's) regenerated from solutions/"
HELP += "check-exercises  fail if exercises/ is stale or a skeleton does not build (CI runs it)"
CHECK_TARGETS += check-exercises
check-exercises:
	$(Q)rm -rf $(BUILD)/exercises-fresh && mkdir -p $(BUILD)/exercises-fresh
	$(Q)for d in solutions/stage*; do code/tools/mkexercises.sh $$d $(BUILD)/exercises-fresh/$${d#solutions/} \
	  $(BUILD)/exercises-fresh/shapes/$${d#solutions/} || exit 2; done
	$(Q)diff -r -x shapes exercises $(BUILD)/exercises-fresh >/dev/null 2>&1 || { \
		diff -r -x shapes exercises $(BUILD)/exercises-fresh | head -20; \
		echo "check-exercises: exercises/ is stale; run 'make exercises' and commit it" >&2; exit 1; }
	$(Q)diff -r tests/grade/shapes $(BUILD)/exercises-fresh/shapes >/dev/null 2>&1 || { \
		diff -r tests/grade/shapes $(BUILD)/exercises-fresh/shapes | head -20; \
		echo "check-exercises: tests/grade/shapes/ is stale; run 'make exercises' and commit it" >&2; exit 1; }
	@echo "check-exercises: exercises/ matches solutions/"
	@# The first thing a student runs is make check-stageN on the skeleton: it must build.
	$(Q)$(MAKE) --no-print-directory -s $(foreach n,$(STAGES),$(BUILD)/student/stage$(n)/ksim $(S$(n)_exercises_TESTS)) \
		>/dev/null || { echo "check-exercises: a skeleton in exercises/ does not build (see above)" >&2; exit 1; }
	@# A student's build goes on past a warning; a skeleton must not have one.
	$(Q)! cat $(foreach n,$(STAGES),$(S$(n)_exercises_WARNINGS)) 2>/dev/null | grep -A 3 ': warning: ' || { \
		echo "check-exercises: a skeleton in exercises/ compiles with warnings (above)" >&2; exit 1; }
	@echo "check-exercises: every stage's skeleton builds, with its tests, without a warning"

# ---------------------------------------------------------------- checking a stage
# How a tool wraps ksim and the suites: nothing natively, setarch -R for
# ThreadSanitizer (it cannot cope with some randomised address layouts).
RUN_PREFIX := $(if $(filter thread,$(SAN_LIST)),setarch $(shell uname -m) -R,)
# A sanitizer's report is a kernel error like an oops: exit status 3.
# ThreadSanitizer sleeps a second in every exiting process (atexit_sleep_ms,
# default 1000) for threads still running to report: every ksim run and
# every forked Check test paid it, 100 of the 180 s of check-san-thread.
# Races are reported while the threads run; what the sleep could add is a
# race in a thread still running at exit, and ksim ends its jobs and
# flushes its work first (end_run, code/shell/main.c): what is left sleeps.
SAN_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=3 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=3 \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:exitcode=3:atexit_sleep_ms=0

# Grading runs ksim under the controlled scheduler (code/kernel/scheduler.h):
# one task at a time, virtual time, a deadlock seen at once, so a scenario's
# outcome never depends on how busy the machine is.  KSIM_SCHED= (empty)
# grades with free threads instead.  Under a sanitizer too: a scenario whose
# story is a 100 ms window (seed example 1) loses its race under
# ThreadSanitizer's slowdown on a busy machine, and ASan and UBSan lose nothing
# by it.  What ThreadSanitizer is for, races between threads running at
# once, it still sees in the suites that start their own threads (the stress
# test, the unit tests), which never go through ksim.
KSIM_SCHED ?= nonpreemptive
KSIM_SCHED_ARGS = $(if $(KSIM_SCHED),--sched $(KSIM_SCHED))
# RUN_STAGE_TESTS(N, dir, variant) - the recipe that grades one build of stage N.
RUN_STAGE_TESTS = $(Q)KSIM="$(RUN_PREFIX) $(2)/ksim $(KSIM_SCHED_ARGS)" KSIM_DIR=$(2) KSIM_SAN=$(SAN) $(SAN_ENV) T2D=$(BUILD)/tools/trace2dot \
	  tests/lib/runtests.sh "check-stage$(1)$(if $(filter solutions,$(3)), SOLUTIONS=1)$(if $(SAN), SAN=$(SAN))" \
	  $(if $(filter exercises,$(3)),--exercises exercises/stage$(1) $(if $(filter 1,$(V)),--full) --warnings "$(S$(1)_exercises_WARNINGS)") \
	  $(if $(SAN_SKIP_TABLES),,$(addprefix --scenarios ,$(wildcard tests/stage$(1)/scenarios.tsv))) \
	  $(filter-out $(SAN_SKIP),$(S$(1)_$(3)_TESTS))
# The explorer's suites (test_explore; stage 5's test_chardev) under ThreadSanitizer: nothing to see, and a hazard.
# The explorer runs its tasks one at a time, handing the CPU over through
# a mutex, so every access is ordered after the last and TSan can report
# no race there by construction; and its workers are forked from a process
# with threads, which TSan does not support (such a child can die with
# signal 11).  ASan and UBSan run them: a schedule nobody scripted can
# still reach freed memory or overflow.
SAN_SKIP := $(if $(filter thread,$(SAN_LIST)),%/test_explore %/test_chardev)
# For the same reason the scenario tables, when they run under the
# controlled scheduler (the default): with KSIM_SCHED= they run free, and
# ThreadSanitizer checks them too.
SAN_SKIP_TABLES := $(and $(filter thread,$(SAN_LIST)),$(KSIM_SCHED))

HELP += "check-stageN     grade stage N ($(STAGES)): your exercises/stageN; SOLUTIONS=1 grades the reference"
HELP += "helgrind-stageN  run stage N's Valgrind scenarios (your build; SOLUTIONS=1 the reference) under helgrind"
HELP += "drd-stageN       the same under drd"
HELP += "memcheck-stageN  the same under memcheck"
define CHECK_STAGE
.PHONY: check-stage$(1) check-stage$(1)-reference
# A build that fails still ends with the tally line (0 passed, 1 failed).
# The build's lines go to its log (V=1: to the screen), so a student's first
# screen is the list of exercises, not a page of compiler lines; what the
# compiler said about the student's files is reported with the tally
# (runtests.sh --warnings), and a failed build prints its log's errors.
check-stage$(1): $(BUILD)/.deps-ok
	$(Q)mkdir -p $(call stage_dir,$(1))
	$(if $(filter 1,$(SOLUTIONS)),,$$(call gate_stage,$(1),source))
	$(Q)$$(MAKE) --no-print-directory $(if $(V),,-s) $(call stage_dir,$(1))/ksim $(BUILD)/tools/trace2dot \
	  $$(if $$(filter 1,$$(SOLUTIONS)),$$(S$(1)_solutions_TESTS),$$(S$(1)_exercises_TESTS)) \
	  $(if $(V),,>$(call stage_dir,$(1))/build.log 2>&1) \
	  || { $(if $(V),,grep -v '^  [A-Z]* ' $(call stage_dir,$(1))/build.log;) \
	       echo "check-stage$(1)$(if $(filter 1,$(SOLUTIONS)), SOLUTIONS=1): build failed, 0 passed, 1 failed"; exit 1; }
	$(if $(filter 1,$(SOLUTIONS)),,$$(call gate_stage,$(1),objects))
	$$(call RUN_STAGE_TESTS,$(1),$(call stage_dir,$(1)),$(if $(filter 1,$(SOLUTIONS)),solutions,exercises))
CHECK_TARGETS += check-stage$(1)-reference
check-stage$(1)-reference: $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim $$(S$(1)_solutions_TESTS)
	$$(call RUN_STAGE_TESTS,$(1),$(BUILD)/stage$(1),solutions)

.PHONY: helgrind-stage$(1) drd-stage$(1) memcheck-stage$(1)
# The student's build, unless SOLUTIONS=1; valgrind.sh says which it ran.
helgrind-stage$(1) drd-stage$(1) memcheck-stage$(1): %-stage$(1): $(BUILD)/.deps-ok $(call stage_dir,$(1))/ksim
	$(Q)KSIM=$(call stage_dir,$(1))/ksim tests/lib/valgrind.sh $$* tests/stage$(1)/valgrind.tsv \
	  $(BUILD)/valgrind/$(if $(filter 1,$(SOLUTIONS)),stage$(1),student/stage$(1)) \
	  $(if $(filter 1,$(SOLUTIONS)),--build "the reference: solutions/stage$(1)",\
	    --student --build "your exercises/stage$(1); SOLUTIONS=1 runs the reference")
endef
$(foreach n,$(STAGES),$(eval $(call CHECK_STAGE,$(n))))

# ---------------------------------------------------------------- make check
HELP += "check            everything on the reference solutions: kernel, tools, stages, Valgrind; CI runs this (one part per CPU at once; CHECK_JOBS=1 one at a time)"
.PHONY: check check-valgrind
HELP += "check-valgrind   every stage's Valgrind expectations (helgrind, drd, memcheck)"
HELP += "check-valgrind-stageN  stage N's alone (make check runs them side by side)"
VALGRIND_STAGES := $(patsubst tests/stage%/valgrind.tsv,%,$(wildcard tests/stage*/valgrind.tsv))
CHECK_TARGETS += $(addprefix check-valgrind-stage,$(VALGRIND_STAGES))
.PHONY: $(addprefix check-valgrind-stage,$(VALGRIND_STAGES))
check-valgrind: $(BUILD)/.deps-ok
	$(Q)fail=0; for n in $(VALGRIND_STAGES); do $(MAKE) --no-print-directory check-valgrind-stage$$n || fail=1; done; exit $$fail
define CHECK_VALGRIND_STAGE
check-valgrind-stage$(1): $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim
	$(Q)fail=0; for tool in memcheck helgrind drd; do grep -q "^$$$$tool	" tests/stage$(1)/valgrind.tsv || continue; \
	    KSIM=$(BUILD)/stage$(1)/ksim tests/lib/valgrind.sh $$$$tool tests/stage$(1)/valgrind.tsv $(BUILD)/valgrind/stage$(1) --quiet || fail=1; \
	  done; exit $$$$fail
endef
$(foreach n,$(VALGRIND_STAGES),$(eval $(call CHECK_VALGRIND_STAGE,$(n))))
# The last line of the recipe's output is the total CI reads, "N passed, M
# failed" (code/tools/tally.sh), when it fails too: the deps step runs inside
# the recipe, so a package that cannot be installed is one failure counted, not
# a make error with no tally.  (When the recipe fails, make itself then adds
# "make: *** [...] Error 1" on stderr; .ci/run leaves that line out.)
# code/tools/checkrun.sh builds what the targets need once, then runs them
# side by side (make -jN check: N at once; plain make check: one per CPU,
# CHECK_JOBS=1 one at a time)
# and prints each one's output whole, in the order of CHECK_TARGETS.  A
# failed build counts in the tally only if no target failed (a target that
# needs what did not build fails with the compiler's message).  Inside
# it a stage's suites run one at a time (KTEST_JOBS=1, tests/lib/runtests.sh):
# the targets beside each other already fill the CPUs, and more at once
# pushes the sanitizers' explorer runs past their time limits.  Each target's output is kept
# in $(BUILD)/check/TARGET.log, the times of each in $(BUILD)/check/times.tsv.
# CHECK_FIRST: the long targets, started first so the short ones fill in around them.
# The sanitizers are spread out: side by side they starve their explorer runs of CPU.
CHECK_FIRST := check-grade check-first-screen check-san-address+undefined check-valgrind-stage3 check-san-thread \
	check-stage4-mistakes check-progress check-exercises check-book check-valgrind-stage4
check:
	$(Q)$(MAKE) --no-print-directory -s $(BUILD)/.deps-ok $(if $(SAN),,build/.deps-book-ok build/.deps-book-check-ok) || { \
	  echo "make check: FAILED: the Debian packages are not all installed (above); nothing was checked"; \
	  echo "0 passed, 1 failed"; exit 1; }
	$(Q)d=$$(mktemp -d $(BUILD)/check.XXXXXX); \
	  KTEST_JOBS=$${KTEST_JOBS:-1} MAKE="$(MAKE)" CHECK_FIRST="$(CHECK_FIRST)" CHECK_SHOWN_DIR=$(BUILD)/check code/tools/checkrun.sh $$d $(CHECK_TARGETS); fail=$$?; \
	  [ $$fail = 0 ] && echo "make check: all passed" || echo "make check: FAILED"; \
	  code/tools/tally.sh $$d $$([ "$$(cat $$d/build.rc)" = 0 ] || cat $(patsubst %,$$d/%.rc,$(CHECK_TARGETS)) | grep -qvx 0 || echo build) $(CHECK_TARGETS); \
	  rm -rf $(BUILD)/check; mv $$d $(BUILD)/check; [ $$fail = 0 ]

# ---------------------------------------------------------------- help
HELP += "help             this list"
.PHONY: help
help:
	@printf '%s\n' "Targets (make TARGET [SOLUTIONS=1] [SAN=address|thread|undefined] [CC=clang] [V=1] [CFLAGS=...]):" $(HELP) | sed 's/^\([a-z]\)/  \1/'

.PHONY: clean
HELP += "clean            remove build/"
clean:
	rm -rf build
