/// Iterates `iterator` to its end on the calling task and reports how it ended; an
/// `onElement` that returns `false` stops early (reported as a finish).
@inlinable func drain<Iterator: AsyncIteratorProtocol>(
    _ iterator: inout Iterator,
    _ onElement: (Iterator.Element) async -> Bool
) async -> Result<Void, Iterator.Failure> {
    do {
        while let element = try await iterator.next(isolation: nil) {
            guard await onElement(element) else { break }
        }
        return .success(())
    } catch {
        return .failure(error)
    }
}
