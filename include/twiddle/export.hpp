// twiddle: symbol visibility for the shared library.
#pragma once

#if defined(TWIDDLE_BUILDING_LIBRARY)
#define TWIDDLE_API __attribute__((visibility("default")))
#else
#define TWIDDLE_API
#endif
