# tests/mutants/mutants.mk - make mutants: how many one-line bugs a stage's checks catch.
#
# code/tools/mutate.py makes the mutants (a statement dropped, two swapped, a
# comparison or condition flipped, an atomic split or relaxed) of the
# reference's files of stage N, solutions/stageN/*.c, whole: the exercise
# regions and the given code around them; and of the given file the
# exercises serve most closely, MUTATE_GIVEN_N (stage 4: the removal order,
# code/stage4/sysfs_remove.c, which drives the drain).  MUTATE="FILE..."
# names other files of the stage instead (code/stageN/pci.c; not a module,
# whose .so is the reference's).  code/tools/mutants.py builds and checks each in a directory
# of its own, one per CPU, and reports killed / survived / did not compile.
# tests/mutants/stageN.survivors lists the survivors of this tree, each with
# its reason; a survivor not listed there fails the run.
MUTANT_TIMEOUT ?= 300
MUTANT_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# mutant_suites(N) - stage N's suites, the cheap ones first: a mutant stops at the first that fails.
mutant_suites = $(filter-out %/test_explore %/test_stress,$(S$(1)_solutions_TESTS)) \
	$(filter %/test_explore,$(S$(1)_solutions_TESTS)) $(filter %/test_stress,$(S$(1)_solutions_TESTS))
# mutants_cmd(N, files, extra args) - mutants.py on stage N's reference build.
mutants_cmd = $(call mistake_env,$(1)) python3 code/tools/mutants.py --stage $(1) \
	--out $(BUILD)/mutants/stage$(1) --files "$(2)" --timeout $(MUTANT_TIMEOUT) --jobs $(MUTANT_JOBS) \
	$(addprefix --scenarios ,$(wildcard tests/stage$(1)/scenarios.tsv)) $(3) $(call mutant_suites,$(1))
mutant_deps = $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim $(BUILD)/stage$(1)/stage.a $(KERNEL_OBJ) \
	$(SHELL_OBJ) $(TESTLIB_OBJ) $(S$(1)_solutions_TESTS)

STAGE ?= 4
MUTATE_GIVEN_4 := code/stage4/sysfs_remove.c
MUTATE ?= $(wildcard solutions/stage$(STAGE)/*.c) $(MUTATE_GIVEN_$(STAGE))
HELP += "mutants          run stage STAGE's checks (default 4) on one-line mutants of its reference, report killed/survived (MUTATE=files)"
HELP += "mutants-list     list those mutants (their keys, for tests/mutants/*.survivors and sample.tsv)"
.PHONY: mutants mutants-list check-mutants-sample check-mutate
mutants: $(call mutant_deps,$(STAGE))
	$(Q)code/tools/deps.sh python3
	$(Q)$(call mutants_cmd,$(STAGE),$(MUTATE),--survivors tests/mutants/stage$(STAGE).survivors)
mutants-list:
	$(Q)for f in $(MUTATE); do python3 code/tools/mutate.py list $$f; done

# make check's sample: a few mutants of each stage that has a tests/mutants/sample-stageN.tsv, each caught
# by a cheap suite.
HELP += "check-mutants-sample  the few mutants of tests/mutants/sample-stageN.tsv must all be killed"
CHECK_TARGETS += check-mutants-sample check-mutate
MUTANT_SAMPLES := $(patsubst tests/mutants/sample-stage%.tsv,%,$(wildcard tests/mutants/sample-stage*.tsv))
check-mutants-sample: $(foreach n,$(MUTANT_SAMPLES),$(call mutant_deps,$(n)))
	$(Q)code/tools/deps.sh python3
	$(Q)fail=0; $(foreach n,$(MUTANT_SAMPLES),$(call mutants_cmd,$(n),$(wildcard solutions/stage$(n)/*.c),\
	  --sample tests/mutants/sample-stage$(n).tsv) || fail=1;) exit $$fail
HELP += "check-mutate     the mutant generator's own test (tests/mutants/test_mutate.py)"
check-mutate:
	$(Q)code/tools/deps.sh python3
	$(Q)python3 tests/mutants/test_mutate.py
