/*
 * A TOML 1.0 parser.  toml_parse() turns a document into a tree of values
 * that remember where they were written (line and column), so that the
 * code that checks a configuration can point at the bad key.
 */
#ifndef RENACER_TOML_H
#define RENACER_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum toml_type {
	TOML_STRING = 1,
	TOML_INTEGER,
	TOML_FLOAT,
	TOML_BOOL,
	TOML_DATETIME,        /* offset date-time */
	TOML_DATETIME_LOCAL,  /* local date-time */
	TOML_DATE_LOCAL,
	TOML_TIME_LOCAL,
	TOML_ARRAY,
	TOML_TABLE,
};

struct toml_value;

/* One key of a table, in document order. */
struct toml_kv {
	char *key;                 /* decoded key (UTF-8, may contain NUL? no) */
	struct toml_value *value;
};

struct toml_value {
	enum toml_type type;
	unsigned line, col;        /* where the value (or table header) starts */
	union {
		struct { char *s; size_t len; } str;   /* TOML_STRING, and the
		                                          original text of dates */
		int64_t i;
		double f;
		bool b;
		struct { struct toml_value **items; size_t n, alloc; } arr;
		struct { struct toml_kv *kv; size_t n, alloc; } tab;
	} u;
	unsigned kline, kcol;      /* where the key naming this value is */
	uint8_t defined;           /* internal: how the table was defined */
};

/*
 * Parses len bytes of text.  Returns the root table, or NULL with a
 * message "LINE:COL: description" written to err (err may be NULL).
 * The caller frees the tree with toml_free().
 */
struct toml_value *toml_parse(const char *text, size_t len, char *err, size_t errlen);
void toml_free(struct toml_value *v);

/* Looks up key in a table (NULL when absent or v is not a table). */
struct toml_value *toml_get(const struct toml_value *table, const char *key);

/* Returns the name of a type ("string", "integer", ...). */
const char *toml_type_name(enum toml_type t);

#endif
