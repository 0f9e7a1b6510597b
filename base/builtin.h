/* builtin.h -- configurations compiled into tpsim (from configs/NAME.cfg). */
#ifndef TP_BUILTIN_H
#define TP_BUILTIN_H
/* Text of the built-in configuration NAME, or NULL. */
const char *tp_builtin_config(const char *name);
/* Name of the i-th built-in configuration, or NULL past the end. */
const char *tp_builtin_config_name(int i);
#endif
