/*
** opt.h -- typed, documented configuration options.
**
** Each machine (the GPU with its device/exec/timing options, the VMIPS vector
** machine) declares its options once, as one table of tp_optdef built from an
** X-macro list.  A tp_opts holds one value per option.  Values come, in order
** of precedence, from the defaults in the table, a configuration file
** ("key = value" lines, '#' comments, "include = NAME" to start from another
** configuration), and command-line or environment overrides.
**
** Numbers take the usual C forms (decimal, 0x hex) and a k/M/G suffix
** (powers of 1024) for sizes.  Booleans take 0/1/true/false/on/off/yes/no.
*/
#ifndef TP_OPT_H
#define TP_OPT_H

#include "tp.h"
#include "err.h"
#include "sbuf.h"

typedef enum tp_opt_type {
    TP_OPT_INT,    /* signed 64-bit integer with [min, max] */
    TP_OPT_FLOAT,  /* double with [min, max] */
    TP_OPT_BOOL,   /* 0 or 1 */
    TP_OPT_STR,    /* free text */
    TP_OPT_ENUM,   /* one of the '|'-separated choices; value is its index */
} tp_opt_type;

/* The C type of the field an option is bound to (tp_opts_bind). */
typedef enum tp_opt_bind { TP_BIND_NONE, TP_BIND_U32, TP_BIND_U64, TP_BIND_I64, TP_BIND_F64, TP_BIND_BOOL } tp_opt_bind;
#define TP_BIND_OF(ctype) \
    _Generic((ctype){0}, uint32_t: TP_BIND_U32, uint64_t: TP_BIND_U64, int64_t: TP_BIND_I64, double: TP_BIND_F64, bool: TP_BIND_BOOL)

typedef struct tp_optdef {
    const char *name;    /* "device.cc", "l1.size" ... */
    tp_opt_type type;
    const char *def;     /* default, as it would be written in a file */
    double min, max;     /* range for INT and FLOAT */
    const char *choices; /* ENUM: "functional|performance" */
    const char *doc;     /* one line */
    tp_opt_bind bind;    /* TP_BIND_NONE, or the type of the field the value is copied into */
    size_t bind_off;     /* that field's offset in the struct tp_opts_bind fills */
} tp_optdef;

typedef enum tp_opt_src { TP_SRC_DEFAULT, TP_SRC_FILE, TP_SRC_OVERRIDE } tp_opt_src;

typedef struct tp_optval {
    int64_t i;      /* INT, BOOL, ENUM */
    double f;       /* FLOAT (also set for INT) */
    char *s;        /* the value as text (owned) */
    tp_opt_src src;
} tp_optval;

typedef struct tp_opts {
    const tp_optdef *defs;
    uint32_t n;
    tp_optval *v;
    const char *(*builtin)(const char *name); /* finds built-in config text by name */
} tp_opts;

/* Sets every option to its default.  builtin may be NULL. */
void tp_opts_init(tp_opts *o, const tp_optdef *defs, uint32_t n,
                  const char *(*builtin)(const char *name));
void tp_opts_free(tp_opts *o);
void tp_opts_copy(tp_opts *dst, const tp_opts *src);

/* Index of the named option, or -1. */
int tp_opts_find(const tp_opts *o, const char *name);

/* Sets one option from text; the error names the option and the range. */
bool tp_opts_set(tp_opts *o, const char *name, const char *value, tp_opt_src src, tp_err *e);
/* "key=value" (as given to -o). */
bool tp_opts_set_kv(tp_opts *o, const char *kv, tp_opt_src src, tp_err *e);
/* Whitespace-separated "key=value" pairs (as in TPSIM_OPTIONS). */
bool tp_opts_set_list(tp_opts *o, const char *list, tp_opt_src src, tp_err *e);
/* Parses configuration text; errors are "file:line:col: message". */
bool tp_opts_load_text(tp_opts *o, const char *text, const char *filename, tp_err *e);
/* NAME is a path to an existing file, or the name of a built-in configuration. */
bool tp_opts_load_config(tp_opts *o, const char *name_or_path, tp_err *e);

static inline int64_t tp_opt_i(const tp_opts *o, int idx) { return o->v[idx].i; }
static inline double tp_opt_f(const tp_opts *o, int idx) { return o->v[idx].f; }
static inline const char *tp_opt_s(const tp_opts *o, int idx) { return o->v[idx].s; }

/* Copies every bound option's value (rows with bind != TP_BIND_NONE) into
** its field of the struct at dst: a table whose rows name their fields
** fills that struct in one call, so that an option is one row (and its use). */
void tp_opts_bind(const tp_opts *o, void *dst);

/* The table as text: name, type, default, range or choices, doc. */
void tp_opts_describe(const tp_opts *o, tp_sbuf *out);
/* Current values as a configuration file. */
void tp_opts_dump(const tp_opts *o, tp_sbuf *out);

/* Declares a table from an X-macro list X(id, name, type, def, min, max, choices, doc)
** (a bound row adds the C type and name of its field: B(id, name, type, def, min, max,
** choices, ctype, field, doc); gpu/options.def has them):
**   enum { FOO_OPTS(TP_OPT_ENUM_ID) FOO_NOPT };
**   static const tp_optdef foo_optdefs[] = { FOO_OPTS(TP_OPT_DEF_ROW) };     */
#define TP_OPT_ENUM_ID(id, name, type, def, min, max, choices, doc) id,
#define TP_OPT_DEF_ROW(id, name, type, def, min, max, choices, doc) \
    {name, type, def, min, max, choices, doc},

#endif
