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
	@test -n "$(SCRIPT)" || { echo "run-stage$(1): say which script: make run-stage$(1) SCRIPT=code/scenarios/NAME.ksh" >&2; exit 2; }
	@echo "run-stage$(1): $(call stage_dir,$(1))/ksim $(ARGS) $(SCRIPT)" >&2
	@$(call stage_dir,$(1))/ksim $(ARGS) $(SCRIPT)
endef
$(foreach n,$(STAGES),$(eval $(call RUN_STAGE,$(n))))
