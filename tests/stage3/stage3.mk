# tests/stage3/stage3.mk - stage 3's stress test under the Valgrind tools, and its classic mistakes.
$(eval $(call STAGE_EXTRA_CHECKS,3))
$(eval $(call STAGE_VARIANTS,3))
