import Switchyard

/// Lines for the user: results on stdout, problems on stderr.
enum Output {
    static func out(_ text: String) {
        DescriptorWriter.writeLine(text, to: 1)
    }

    static func error(_ text: String) {
        DescriptorWriter.writeLine(text, to: 2)
    }
}
