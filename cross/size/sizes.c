/*
 * tests/cross/sizes.c - the sizes of the state structs, read without
 * running anything: each is the size of an initialised global (so it lands
 * in .data, never in a common block), which tests/cross/check.sh reads with
 * <target>-nm -S.
 */
#include "pt/pt.h"

char size_pt[sizeof(struct pt)] = {1};
char size_pt_gen[sizeof(struct pt_gen)] = {1};
char size_pt_sem[sizeof(struct pt_sem)] = {1};
