/* strtab.c - string interning with an open-addressing hash table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("trace2dot: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("trace2dot: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p) {
		fputs("trace2dot: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* FNV-1a: short, good enough spread for names like "kobject:sda#12". */
static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	t->nslot = 64;
	t->slot = xcalloc(t->nslot, sizeof(*t->slot));
}

void strtab_free(struct strtab *t)
{
	for (uint32_t i = 0; i < t->nr; i++)
		free(t->str[i]);
	free(t->str);
	free(t->len);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static uint32_t *lookup(const struct strtab *t, const char *s, size_t len)
{
	uint32_t mask = t->nslot - 1;
	uint32_t i = hash(s, len) & mask;

	/* Linear probing ends at an empty slot: the table is never full. */
	for (;; i = (i + 1) & mask) {
		uint32_t id = t->slot[i];

		if (!id)
			return &t->slot[i];
		id--;
		if (t->len[id] == len && !memcmp(t->str[id], s, len))
			return &t->slot[i];
	}
}

static void grow(struct strtab *t)
{
	uint32_t old = t->nslot;
	uint32_t *slot = t->slot;

	t->nslot = old * 2;
	t->slot = xcalloc(t->nslot, sizeof(*t->slot));
	for (uint32_t i = 0; i < old; i++) {
		uint32_t id = slot[i];

		if (id)
			*lookup(t, t->str[id - 1], t->len[id - 1]) = id;
	}
	free(slot);
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	uint32_t id = *lookup(t, s, len);

	return id ? id - 1 : UINT32_MAX;
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
	uint32_t *slot = lookup(t, s, len);

	if (*slot)
		return *slot - 1;
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->str = xrealloc(t->str, t->cap * sizeof(*t->str));
		t->len = xrealloc(t->len, t->cap * sizeof(*t->len));
	}
	t->str[t->nr] = xstrndup(s, len);
	t->len[t->nr] = (uint32_t)len;
	*slot = ++t->nr;
	/* Keep the load at most 1/2 so probes stay short. */
	if (t->nr * 2 > t->nslot)
		grow(t);
	return t->nr - 1;
}
