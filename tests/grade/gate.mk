# tests/grade/gate.mk - the submission gate: its tool, check-stageN's use of it, and check-gate.
# Included by the top-level Makefile, which defines BUILD, CC, CFLAGS, STAGES, HELP.
# make grade (tests/grade/grade.sh, and so the Gradescope bundle) runs
# tests/grade/gate.sh itself; grade-prebuild builds the tool first.

GATE := $(BUILD)/tools/gate
$(GATE): tests/grade/gate.c
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
grade-prebuild: $(GATE)

# gate_stage(N, half) - check-stageN's gate on the student's exercises/stageN:
# half "source" before the build, "objects" after it (said only when the
# source half refused nothing: the same mistake is not named twice).  What
# the grader would refuse is printed first; the tests run all the same, so
# a student working alone can try anything.
gate_out = $(BUILD)/student/stage$(1)/gate-$(2).out
gate_stage = $(Q)$(if $(filter source,$(2)),$(MAKE) --no-print-directory -s $(GATE) >/dev/null 2>&1;) \
	$(if $(filter objects,$(2)),[ ! -s $(call gate_out,$(1),source) ] &&) \
	GATE_ONLY=$(2) SAN="$(SAN)" tests/grade/gate.sh $(GATE) $(1) exercises/stage$(1) \
	  $(if $(filter objects,$(2)),$(BUILD)/student/stage$(1) $(KERNEL_OBJ)) >$(call gate_out,$(1),$(2)) 2>&1; \
	case $$? in \
	0) ;; \
	1) [ -s $(call gate_out,$(1),$(2)) ] || exit 0; \
	   echo "check-stage$(1): the grader refuses this code (make grade scores the refused file's exercises 0):"; \
	   sed 's/^/  /' $(call gate_out,$(1),$(2)); echo "  (the tests run all the same)" ;; \
	*) echo "check-stage$(1): the submission gate could not run:"; sed 's/^/  /' $(call gate_out,$(1),$(2)) ;; \
	esac

# check-gate - the gate passes every reference, correct variant and
# skeleton, and refuses each attack of tests/grade/gate-tests/ with its
# message (tests/grade/check-gate.sh).
HELP += "check-gate       the submission gate: references, variants and skeletons pass; each attack refused with its message"
CHECK_TARGETS += check-gate
.PHONY: check-gate
check-gate: $(BUILD)/.deps-ok $(GATE) $(KERNEL_OBJ) $(foreach n,$(GRADED_STAGES),$(BUILD)/stage$(n)/ksim $(BUILD)/student/stage$(n)/ksim)
	$(Q)CC="$(CC)" GATE=$(GATE) BUILD=$(BUILD) STAGES="$(GRADED_STAGES)" KERNEL_OBJ="$(KERNEL_OBJ)" \
	  $(foreach n,$(GRADED_STAGES),CFLAGS_$(n)="$(S$(n)_solutions_CFLAGS)") \
	  tests/grade/check-gate.sh $(BUILD)/check-gate
