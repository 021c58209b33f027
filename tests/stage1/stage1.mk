# tests/stage1/stage1.mk - stage 1's classic mistakes and correct variants.
$(eval $(call STAGE_MISTAKES,1))
$(eval $(call STAGE_VARIANTS,1))
