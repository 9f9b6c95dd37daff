import CSwitchyardChecksum

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of iSCSI, ext4 and
/// Btrfs: with the processor's CRC-32C instruction where it has one (x86-64 with SSE 4.2),
/// elsewhere with slicing-by-8 tables.
///
/// The journal checksums every line it writes over the bytes it already serialized, so the
/// checksum adds no allocation to the append path. The instruction takes eight bytes a step
/// where the tables take about thirty instructions; on the control path's journal lines it
/// was a twentieth of the bus's instructions per action. A running value continues from a
/// previous one (``update(_:_:)``), which is how journal lines chain: each line's checksum
/// starts from the previous line's.
enum CRC32C {
    /// The checksum of `bytes`, continuing from `crc` (0 for a fresh checksum).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        update(~crc, bytes) ^ 0xFFFF_FFFF
    }

    /// The checksum of `bytes`, continuing from `crc` (0 for a fresh checksum).
    static func checksum(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0), continuing: crc) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// Advances the raw (pre-inverted) register over `bytes`.
    static func update(_ register: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard hardware, let start = bytes.baseAddress else { return updateWithTables(register, bytes) }
        return csum_crc32c_update(register, start, bytes.count)
    }

    /// Whether this processor has the CRC-32C instruction.
    static let hardware = csum_crc32c_hardware() != 0

    /// ``update(_:_:)`` with the portable tables, whatever the processor has.
    static func updateWithTables(_ register: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = register
        var index = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { table in
            while count - index >= 8 {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                let high = UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8
                    | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }

    /// Table k maps a byte to its contribution k bytes further on; table 0 is the classic one.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// `crc` as eight lower-case hexadecimal digits, as journal lines carry it.
    static func hex(_ crc: UInt32, into output: inout [UInt8]) {
        for shift in stride(from: 28, through: 0, by: -4) {
            let digit = UInt8((crc >> UInt32(shift)) & 0xF)
            output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// Eight hexadecimal digits back into a checksum; `nil` unless there are exactly eight.
    static func parseHex(_ digits: some Collection<UInt8>) -> UInt32? {
        guard digits.count == 8 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }
}
