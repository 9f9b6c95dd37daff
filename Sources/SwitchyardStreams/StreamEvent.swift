/// One event of an asynchronous sequence as a value: an element, the failure, or the finish.
///
/// `materialize()` turns a sequence into its events, so a failure becomes an ordinary value
/// that can be stored, sent or mapped; `dematerialize()` turns events back into a sequence.
public enum StreamEvent<Element, Failure: Error> {
    /// The sequence produced an element.
    case element(Element)
    /// The sequence failed; no event follows.
    case failure(Failure)
    /// The sequence finished; no event follows.
    case finished

    /// The element, or `nil` for the failure and the finish.
    @inlinable public var element: Element? {
        if case .element(let element) = self { element } else { nil }
    }

    /// The failure, or `nil` for an element and the finish.
    @inlinable public var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}

extension StreamEvent: Sendable where Element: Sendable {}
extension StreamEvent: Equatable where Element: Equatable, Failure: Equatable {}
extension StreamEvent: Hashable where Element: Hashable, Failure: Hashable {}
