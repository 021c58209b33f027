# tests/lib/explore.mk - `make explore-stageN`: a stage's harnesses under many schedules.
#
# Each stage with tests/stageN/test_explore.c has harnesses aimed at its
# protocol; check-stageN runs them with a small fixed plan, explore-stageN
# with the full one: PCT of depths 2 and 3 (RUNS schedules each) and every
# schedule with at most 2 preemptions (dfs:2), or fewer where a harness
# says why (stage 4's two-drains: dfs:0, its dfs:1 is 454,275 schedules and
# its dfs:2 past the explorer's cap of 2,000,000).  Each line it prints says
# how many schedules of which strategy ran, and whether a dfs was every
# schedule within its bound or stopped at the cap.  A failure prints the
# broken invariant, the shortest failing schedule and the command that
# replays it, and writes that run's trace under build/explore/stageN/.
#
# RUNS is sized by cost: a schedule costs about 0.3 ms of CPU (most of it
# the host kernel's: a thread hand-off per decision, page mappings per
# kmalloc), so stage 4's 11 harnesses at 15,000 runs of each depth cost
# about 120 CPU-seconds and its bounded searches about 85: 206 measured in
# all, 2 min 6 s on 2 cores, within the 2.5 min (300 CPU-seconds) the whole
# may take (20,000 runs took 2 min 30 s: no margin).  Every stage-4 mistake
# that test_explore catches (tests/stage4/mistakes.tsv) falls to PCT within
# 141 runs.
RUNS ?= 15000
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

HELP += "explore-stageN   stage N's harnesses under PCT and bounded DFS (RUNS=15000 SEED=1 HARNESS= SCHED= JOBS=ncpu)"
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
