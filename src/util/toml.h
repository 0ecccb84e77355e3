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
	char *key;                 /* decoded key, UTF-8, NUL terminated */
	struct toml_value *value;
	size_t keylen;             /* length of key (a quoted key may hold "\u0000") */
};

/* The parts of a date, time or date-time (fields absent from the type are 0). */
struct toml_datetime {
	int year, month, day;      /* 1..9999, 1..12, 1..31 */
	int hour, minute, second;  /* 0..23, 0..59, 0..59 */
	uint32_t nanosecond;       /* fraction of the second (digits past 9 dropped) */
	int offset_minutes;        /* TOML_DATETIME: offset east of UTC; Z is 0 */
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
		struct {
			struct toml_kv *kv; size_t n, alloc;
			uint32_t *index;   /* internal: hash of kv for big tables */
			size_t index_cap;
		} tab;
	} u;
	unsigned kline, kcol;      /* where the key naming this value is */
	uint8_t defined;           /* internal: how the table was defined */
	struct toml_datetime dt;   /* TOML_DATETIME .. TOML_TIME_LOCAL */
};

/*
 * Parses len bytes of text.  Returns the root table, or NULL with a
 * message "LINE:COL: description" written to err (err may be NULL).
 * Lines and columns are 1-based; columns count characters, not bytes.
 * Strings (and keys) are NUL terminated in the tree; a multi-line string's
 * CRLF line ends read as "\n".  A leading UTF-8 byte order mark is skipped.
 * The caller frees the tree with toml_free().
 */
struct toml_value *toml_parse(const char *text, size_t len, char *err, size_t errlen);

/* Bounds on what toml_parse_limited() builds (each 0: none). */
struct toml_limits {
	size_t values;             /* values of every kind in the document,
				      tables and arrays included */
	size_t array_items;        /* items of one array or array of tables */
	const char *hint;          /* said in parentheses after a limit's message
				      (what sets the limit), or NULL */
};

/*
 * toml_parse() that stops as soon as the document holds more than lim
 * allows (a message "LINE:COL: more than N ..." at the value beyond it),
 * so that the tree of a hostile document never grows past the limits:
 * memory is bounded by lim and len, not by what the text asks for.
 */
struct toml_value *toml_parse_limited(const char *text, size_t len,
				      const struct toml_limits *lim, char *err, size_t errlen);
void toml_free(struct toml_value *v);

/* Looks up key in a table (NULL when absent or v is not a table). */
struct toml_value *toml_get(const struct toml_value *table, const char *key);

/* Returns the name of a type ("string", "integer", ...). */
const char *toml_type_name(enum toml_type t);

/*
 * Writes a date/time value in the normalized RFC 3339 form that toml-test
 * uses ("1987-07-05T17:45:00.5Z", "17:45:00", "+08:00" offsets, fraction
 * without trailing zeros) into buf; returns the length, or -1 when v is not a
 * date/time.
 */
int toml_datetime_format(const struct toml_value *v, char *buf, size_t size);

/* True for the four date/time types. */
static inline bool toml_is_datetime(const struct toml_value *v)
{
	return v && v->type >= TOML_DATETIME && v->type <= TOML_TIME_LOCAL;
}

#endif
