# tests/stage4/stage4.mk - stage 4's stress test (stage 3's, with self-removing devices) under
# the Valgrind tools, and its classic mistakes.
$(eval $(call STAGE_EXTRA_CHECKS,4))
$(eval $(call STAGE_VARIANTS,4))
