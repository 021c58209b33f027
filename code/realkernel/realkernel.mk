# realkernel.mk - make real-kernel: the seed's lines on Debian's Linux 6.1 under QEMU,
# held against the predictions of stages 4 and 5 (code/realkernel/).  Not part of make check:
# it downloads a kernel (~70 MB) and boots VMs; .ci/run runs it after make check.
HELP += "real-kernel      the scenarios on Debian's Linux 6.1 under QEMU, held against stages 4 and 5's predictions (~40 s; first run ~80 s, ~105 MB of downloads)"
HELP += "real-kernel-record  copy the last real-kernel run's table and console excerpts to code/realkernel/recorded/"
.PHONY: real-kernel real-kernel-record
# The stages whose ksim predicts a scenario: its "# ksim: stageN" line.
REALKERNEL_KSIMS := $(foreach n,$(sort $(shell sed -n 's/^\# ksim: *stage\([0-9]*\) .*/\1/p' code/realkernel/scenarios/*.sh)),$(BUILD)/stage$(n)/ksim)
real-kernel: $(BUILD)/.deps-ok $(REALKERNEL_KSIMS)
	@# Debian's kernel runs without lockdep (CONFIG_PROVE_LOCKING is off), so the
	@# predictions are ksim's without it too: a deadlock is a hang on both.
	$(Q)KSIM_LOCKDEP=0 BUILD=$(BUILD) code/realkernel/real-kernel.sh

real-kernel-record:
	$(Q)code/realkernel/record.sh build/real-kernel code/realkernel/recorded

# The console parser's own test, on made-up consoles: cheap, so part of make check.
.PHONY: check-realkernel-scripts
check-realkernel-scripts:
	$(Q)code/realkernel/test-outcomes.sh
CHECK_TARGETS += check-realkernel-scripts
HELP += "check-realkernel-scripts  make real-kernel's console parser on made-up consoles"

# The KSIM column of predictions.tsv against ksim alone (each scenario's
# stage, as its "# ksim:" line says): no VM, a few seconds, so part of
# make check.  make real-kernel adds Linux's column.
.PHONY: check-realkernel-predictions
check-realkernel-predictions: $(REALKERNEL_KSIMS)
	$(Q)rm -rf $(BUILD)/realkernel-ksim && mkdir -p $(BUILD)/realkernel-ksim
	$(Q)KSIM_LOCKDEP=0 code/realkernel/check.sh --ksim-only $(BUILD) $(BUILD)/realkernel-ksim \
		$$(cd code/realkernel/scenarios && ls *.sh | sed 's/\.sh$$//')
CHECK_TARGETS += check-realkernel-predictions
HELP += "check-realkernel-predictions  stages 4 and 5's predictions for make real-kernel's scenarios, against ksim alone (no VM)"
