import Testing

@testable import Switchyard
@testable import SwitchyardBus

/// The text helpers the bus writes itself because FoundationEssentials lacks them, checked
/// against what Foundation's versions give.
struct TextHelpersTests {
    /// Each set keeps what Foundation's URL character sets (and ASCII alphanumerics) keep and
    /// encodes every other UTF-8 byte.
    @Test(arguments: [
        ("São Paulo & co", PercentEncoding.Kept.unreserved, "S%C3%A3o%20Paulo%20%26%20co"),
        ("a-b.c_d~e", .unreserved, "a-b.c_d~e"),
        ("a-b.c_d~e", .alphanumerics, "a%2Db%2Ec%5Fd%7Ee"),
        ("/p/a:b@c;d=e?f", .path, "/p/a:b@c;d=e%3Ff"),
        ("/p/a:b@c;d=e?f#g", .query, "/p/a:b@c;d=e?f%23g"),
        ("!$&'()*+,", .path, "!$&'()*+,"),
        ("100%", .query, "100%25"),
    ])
    func encodes(text: String, kept: PercentEncoding.Kept, encoded: String) {
        #expect(PercentEncoding.encode(text, keeping: kept) == encoded)
    }

    /// Decoding undoes every escape (and `+` in form encoding only); a broken escape or bytes
    /// that are not UTF-8 give nil.
    @Test(arguments: [
        ("S%C3%A3o%20Paulo", false, "São Paulo" as String?),
        ("a+b%2Bc", true, "a b+c"),
        ("a+b", false, "a+b"),
        ("plain", false, "plain"),
        ("%zz", false, nil),
        ("%4", false, nil),
        ("%FF", false, nil),
    ])
    func decodes(text: String, plusIsSpace: Bool, decoded: String?) {
        #expect(PercentEncoding.decode(text, plusIsSpace: plusIsSpace) == decoded)
    }

    /// Spaces and tabs are trimmed from both ends, line breaks only by the wider trim.
    @Test func trims() {
        #expect(" \t a b \t".trimmingSpaces() == "a b")
        #expect("\n a \n".trimmingSpaces() == "\n a \n")
        #expect("\r\n a \n".trimmingWhitespace() == "a")
        #expect("   ".trimmingSpaces() == "")
    }

    /// The directory a path names a file in; `.` for a bare name.
    @Test(arguments: [
        ("/var/log/bus.log", "/var/log"), ("/bus.log", "/"), ("bus.log", "."), ("logs/bus.log", "logs"),
        ("/var/log/", "/var"), ("logs/", "."), ("/", "/"), ("a//b", "a"),
    ])
    func parentPath(path: String, parent: String) {
        #expect(path.parentDirectory == parent)
    }
}
