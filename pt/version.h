/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/version.h - the library's version, at compile time (pt/pt.h, and so
 * loop/loop.h, include it).
 *
 *   PT_VERSION_MAJOR    0
 *   PT_VERSION_MINOR    1
 *   PT_VERSION_PATCH    0
 *   PT_VERSION_STRING   "0.1.0"
 *
 * Integer constants, usable in #if: code that needs a newer release says
 *
 *   #if PT_VERSION_MAJOR == 0 && PT_VERSION_MINOR < 2
 *   #error "needs ptloop 0.2"
 *   #endif
 *
 * Before 1.0 a minor release may change the interface; a patch release
 * does not. The same version is in meson.build, CMakeLists.txt and every
 * package manifest; tests/manifests/check.py (suite 'packaging') fails if
 * any of them differs.
 */
#ifndef PT_VERSION_H
#define PT_VERSION_H

#define PT_VERSION_MAJOR 0
#define PT_VERSION_MINOR 1
#define PT_VERSION_PATCH 0
#define PT_VERSION_STRING "0.1.0"

#endif /* PT_VERSION_H */
