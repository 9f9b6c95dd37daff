#include "CSwitchyardChecksum.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

int csum_crc32c_hardware(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}

__attribute__((target("sse4.2")))
uint32_t csum_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const uint8_t *next = bytes;
    uint64_t wide = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, next, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        next += 8;
        count -= 8;
    }
    uint32_t narrow = (uint32_t)wide;
    while (count > 0) {
        narrow = __builtin_ia32_crc32qi(narrow, *next);
        next += 1;
        count -= 1;
    }
    return narrow;
}

#else

int csum_crc32c_hardware(void) { return 0; }

uint32_t csum_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;
}

#endif
