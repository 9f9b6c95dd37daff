/// Random bytes and random edits of byte strings over an alphabet, for mutation fuzzing of
/// parsers: the alphabet holds the bytes a parser cares about plus awkward ones.
public struct ByteMutator: Sendable {
    /// The bytes drawn from; never empty.
    public let alphabet: [UInt8]

    /// A mutator drawing from `alphabet`.
    /// - Precondition: `alphabet` is not empty.
    public init(alphabet: [UInt8]) {
        precondition(!alphabet.isEmpty, "a ByteMutator needs at least one byte to draw from")
        self.alphabet = alphabet
    }

    /// One byte of the alphabet.
    public func byte(using generator: inout some RandomNumberGenerator) -> UInt8 {
        alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
    }

    /// `count` bytes of the alphabet.
    public func bytes(count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in byte(using: &generator) }
    }

    /// One random edit: replace, delete or insert a byte, cut the rest, or copy a run of up to
    /// 16 bytes elsewhere; an empty input gets one byte.
    public func mutate(_ bytes: inout [UInt8], using generator: inout some RandomNumberGenerator) {
        guard !bytes.isEmpty else {
            bytes.append(byte(using: &generator))
            return
        }
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: bytes[position] = byte(using: &generator)
        case 1: bytes.remove(at: position)
        case 2: bytes.insert(byte(using: &generator), at: position)
        case 3: bytes.removeSubrange(position...)
        default:
            let end = min(bytes.count, position + Int.random(in: 1...16, using: &generator))
            bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &generator))
        }
    }
}
