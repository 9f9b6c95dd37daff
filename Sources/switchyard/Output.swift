import SwitchyardBus

/// Lines for the user: results on stdout, problems on stderr.
enum Output {
    /// Writes a line to stdout; `false` when stdout is closed (a pipe whose reader left).
    @discardableResult
    static func out(_ text: String) -> Bool {
        DescriptorWriter.writeLine(text, to: 1)
    }

    static func error(_ text: String) {
        DescriptorWriter.writeLine(text, to: 2)
    }

    /// Writes bytes to stdout as they are: for output built up in large pieces. `false` when
    /// stdout is closed.
    @discardableResult
    static func out(bytes: [UInt8]) -> Bool {
        DescriptorWriter.writeAll(bytes, to: 1)
    }
}
