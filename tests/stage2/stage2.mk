# tests/stage2/stage2.mk - stage 2's correct variants.
$(eval $(call STAGE_VARIANTS,2))
