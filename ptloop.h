/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * ptloop.h - the whole library in one include, the header an Arduino sketch
 * names: #include <ptloop.h>. It is loop/loop.h (the event loop, with every
 * part loop/config.h leaves on) and pt/pt.h (protothreads, generators).
 *
 * Under the Arduino core (ARDUINO defined) the loop's clock is millis()
 * (loop/port/arduino.h, chosen by loop/port.h): nothing to start, and
 * millis(), delay() and PWM keep working. Elsewhere the port is chosen as
 * for loop/loop.h (a POSIX host's clock, or a port included before this).
 *
 * From C and from C++ alike (a sketch is C++): every function is static
 * inline, so there is no linkage to declare and no file to compile.
 *
 * Arduino library layout: library.properties and this header are in the
 * repository's root, and there is no src/ folder, so the Arduino tools use
 * the flat layout: the root is the include path (pt/ and loop/ are found
 * from it), and only .c/.cpp files in the root and in utility/ would be
 * compiled; there are none.
 */
#ifndef PTLOOP_H
#define PTLOOP_H

#include "loop/loop.h"
#include "pt/pt.h"

#endif /* PTLOOP_H */
