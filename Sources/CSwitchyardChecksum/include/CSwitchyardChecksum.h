#ifndef C_SWITCHYARD_CHECKSUM_H
#define C_SWITCHYARD_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

// The processor's CRC-32C instruction (SSE 4.2 on x86-64), which Swift cannot reach: the
// journal checksums every line it writes, and the instruction does in one step what the
// portable tables do in about thirty.

/// 1 when this processor has the CRC-32C instruction and `csum_crc32c_update` may be called;
/// 0 on processors without it and on other architectures.
int csum_crc32c_hardware(void);

/// Advances the raw (pre-inverted) CRC-32C register over `count` bytes at `bytes`, as the
/// table-driven update does. Only call it when `csum_crc32c_hardware()` returned 1.
uint32_t csum_crc32c_update(uint32_t crc, const void *bytes, size_t count);

#endif
