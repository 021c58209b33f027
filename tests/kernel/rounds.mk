# tests/kernel/rounds.mk - a second round of every waiting primitive (rwsem, wait queues, percpu_ref and RCU) under the explorer.
KTEST_ROUNDS := $(BUILD)/tests/kernel/test_rounds
$(KTEST_ROUNDS): tests/kernel/test_rounds.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-rounds  rwsem (writer, reader, writer), wait queues (a sleeper that waits again), percpu_ref (two kills): every schedule at 2 preemptions"
CHECK_TARGETS += check-kernel-rounds
.PHONY: check-kernel-rounds
check-kernel-rounds: $(BUILD)/.deps-ok $(KTEST_ROUNDS)
	$(Q)tests/lib/runtests.sh check-kernel-rounds $(KTEST_ROUNDS)
