# code/tools/stages.mk - the list of stages is read from the tree, never written down.

# check-stages - no script writes its own list of stages, and a throw-away
# stage without exercises, in a copy of the tree, joins the Makefile's
# STAGES, make check's targets, the tour's plan, check-hints and make
# progress (code/tools/check-stages.sh).
HELP += "check-stages     no script lists the stages itself (code/tools/stages.sh does); a new stage, in a copy, joins every target"
CHECK_TARGETS += check-stages
.PHONY: check-stages
check-stages:
	$(Q)code/tools/check-stages.sh $(BUILD)/check-stages
