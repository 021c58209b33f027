/* exercise.h - what an unfinished exercise stub calls. */
#ifndef KSIM_EXERCISE_H
#define KSIM_EXERCISE_H

/*
 * TODO(name, hint) - stands where a student's code goes.  `make exercises`
 * puts it in place of each fenced solution.  It prints, once per exercise,
 *	TODO(kref_put): not done yet - hint
 * and records the name, so a test can fail with the exercise and its hint
 * rather than with a puzzling symptom.
 */
void exercise_todo(const char *name, const char *hint);
#define TODO(name, hint) exercise_todo(name, hint)

/* exercise_pending - names of the exercises whose stub ran, comma separated, or NULL. */
const char *exercise_pending(void);

#endif
