# tests/lib/explore.mk - `make explore-stageN`: a stage's harnesses under many schedules.
#
# Each stage with tests/stageN/test_explore.c has harnesses aimed at its
# protocol; check-stageN runs them with a small fixed plan, explore-stageN
# with the full one: PCT of depths 2 and 3 (RUNS schedules each) and every
# schedule with at most 2 preemptions.  A failure prints the broken
# invariant, the shortest failing schedule and the command that replays
# it, and writes that run's trace under build/explore/stageN/.
RUNS ?= 100000
SEED ?= 1
HARNESS ?=
SCHED ?=
# JOBS: worker processes (default: one per CPU); the result is the same for any.  JOBS=0: dfs in
# order in one process at a time, as check-stageN runs it.
JOBS ?=
EXPLORE_STAGES := $(patsubst tests/stage%/test_explore.c,%,$(wildcard tests/stage*/test_explore.c))
# explore_suites(N) - stage N's suites with harnesses: test_explore and any other whose main() is
# explore_test_main() (stage 5's test_chardev has the driver's), each explored in turn.
explore_suites = $(sort $(basename $(notdir $(shell grep -l 'return explore_test_main' tests/stage$(1)/test_*.c))))

HELP += "explore-stageN   stage N's harnesses under PCT and bounded DFS (RUNS=100000 SEED=1 HARNESS= SCHED= JOBS=ncpu)"
define EXPLORE_STAGE
.PHONY: explore-stage$(1)
explore-stage$(1): $(BUILD)/.deps-ok $(addprefix $(call stage_dir,$(1))/tests/,$(call explore_suites,$(1)))
	$(Q)mkdir -p $(BUILD)/explore/stage$(1)
	@echo "explore-stage$(1): $(if $(filter 1,$(SOLUTIONS)),the reference,your exercises/stage$(1)) ($(call stage_dir,$(1)))"
	$(Q)fail=0; for t in $(call explore_suites,$(1)); do \
		$(if $(HARNESS),grep -q '\.name = "$(HARNESS)"' tests/stage$(1)/$$$$t.c || continue;) \
		echo "explore-stage$(1): $$$$t"; \
		$(call stage_dir,$(1))/tests/$$$$t --explore --runs $(RUNS) --seed $(SEED) \
		--trace $(BUILD)/explore/stage$(1) $(if $(HARNESS),--harness $(HARNESS)) $(addprefix --sched ,$(SCHED)) \
		$(addprefix --jobs ,$(JOBS)) || fail=1; done; exit $$$$fail
endef
$(foreach n,$(EXPLORE_STAGES),$(eval $(call EXPLORE_STAGE,$(n))))
