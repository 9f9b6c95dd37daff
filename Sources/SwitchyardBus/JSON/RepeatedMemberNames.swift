/// What a parser does with an object member whose name repeats an earlier member's.
///
/// Names are compared by their bytes: `"é"` and `"e\u0301"` are different names (RFC 8259
/// compares code units), even though Swift's `String` calls them equal. A ``JSON`` object keys
/// its members by `String`, so it cannot hold two such names: an object with both is refused
/// under either choice, with a message that says so, rather than losing one of them.
public enum RepeatedMemberNames: Sendable, Hashable {
    /// Refuses the document: where a repeat is a mistake whose second value would silently win
    /// (a configuration, a control request, an HTTP dispatch). The default.
    case refuse
    /// Keeps the last member of a name: where the bus reads other programs' JSON (gpsd, HTTP
    /// responses, NATS messages, `exec` children), as RFC 8259 allows (gpsd 3.22 repeats
    /// `"tAcc"` in every `LOG` report).
    case lastWins
}
