/*
 * cross/size/sizes.c - the sizes of the state structs, read without
 * running anything: each is the size of an initialised global (so it lands
 * in .data, never in a common block), which cross/size_report.py reads with
 * <target>-nm -S.
 */
#define PT_PORT_VIRTUAL 1 /* a board's clock is its port's (loop/port/) */
#include "loop/core.h"

char size_pt[sizeof(struct pt)] = {1};
char size_pt_gen[sizeof(struct pt_gen)] = {1};
char size_pt_sem[sizeof(struct pt_sem)] = {1};
char size_task[sizeof(struct pt_task)] = {1};
char size_loop[sizeof(struct pt_loop)] = {1};
/* A timer is one slot of the caller's heap array. */
char size_timer[sizeof(struct pt_task *)] = {1};
