# tests/stage2/stage2.mk - stage 2's classic mistakes and correct variants.
$(eval $(call STAGE_MISTAKES,2))
$(eval $(call STAGE_VARIANTS,2))
