/* strtab.h - intern strings: each distinct string gets a small dense id. */
#ifndef T2D_STRTAB_H
#define T2D_STRTAB_H

#include <stddef.h>
#include <stdint.h>

/*
 * A trace names the same object on thousands of lines.  Interning turns
 * every later mention into an integer, so the replay compares and hashes
 * ids instead of strings and the whole tool stays linear in the trace.
 *
 * Ids are dense (0, 1, 2...) in order of first appearance, so callers can
 * keep per-string data in a plain array indexed by id.
 */
struct strtab {
	char **str;		/* id -> string (NUL-terminated, owned) */
	uint32_t *len;		/* id -> length, to skip strlen() */
	uint32_t nr;		/* ids handed out */
	uint32_t cap;		/* size of str[] and len[] */
	uint32_t *slot;		/* open addressing: id + 1, or 0 if empty */
	uint32_t nslot;		/* a power of two, kept at most half full */
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);

/* strtab_intern - the id of s[0..len), adding it if new. */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);

/* strtab_find - the id of s, or UINT32_MAX if it was never interned. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);

static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return t->str[id];
}

/* xmalloc and friends: out of memory is fatal for a command-line tool. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t nmemb, size_t size);
char *xstrndup(const char *s, size_t n);

#endif
